import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Says why a directory the config names (storage.dir) cannot hold files, or null when it can
 * (or can be created). Swapped in tests and in `check-config` on another machine. Only
 * metadata is looked at; nothing is created.
 */
export type DirCheck = (path: string) => string | null;

export const checkWritableDir: DirCheck = (path) => {
  let at = resolve(path);
  for (;;) {
    let stat;
    try {
      stat = statSync(at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        const parent = dirname(at);
        if (parent === at) return 'cannot be created: no existing parent directory';
        at = parent;
        continue;
      }
      if (code === 'ENOTDIR') return `cannot be created: a part of the path is a file, not a directory`;
      if (code === 'EACCES') return `cannot be reached: permission denied on ${at}`;
      return `cannot be checked (${code ?? 'unknown error'})`;
    }
    const self = at === resolve(path);
    if (!stat.isDirectory()) return self ? 'is a file, not a directory' : `cannot be created: ${at} is a file, not a directory`;
    try {
      accessSync(at, constants.W_OK | constants.X_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'EROFS' ? 'is on a read-only file system' : 'is not writable by this process';
      return self ? why : `cannot be created: ${at} ${why}`;
    }
    return null;
  }
};
