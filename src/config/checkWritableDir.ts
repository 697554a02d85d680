import { accessSync, constants, realpathSync, statSync, statfsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Says why a directory the config names (storage.dir) cannot hold files, or null when it can
 * (or can be created). Swapped in tests and in `check-config` on another machine. Only
 * metadata is looked at; nothing is created.
 */
export type DirCheck = (path: string) => string | null;

/** Kernel file systems that show state and cannot keep files (statfs f_type, linux/magic.h). */
const PSEUDO_FS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x1cd1, 'devpts'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0x62656570, 'configfs'],
  [0x65735543, 'fusectl'],
  [0xf97cff8c, 'selinuxfs'],
  [0xde5e81e4, 'efivarfs'],
  [0x42494e4d, 'binfmt_misc'],
  [0x19800202, 'mqueue'],
  [0x6e736673, 'nsfs'],
]);

/** Trees of pseudo file systems by their usual mount points, for a path whose parent does not exist yet. */
const PSEUDO_ROOTS = ['/proc', '/sys'];

/**
 * Why a directory at or under `existing` (an existing directory) is on a pseudo file system,
 * or null. Node's recursive mkdir under /proc never returns (it held a thread of the pool and
 * every save behind it: /runs hung and SIGTERM waited), so this is decided before anything is made.
 */
function pseudoProblem(path: string, existing: string): string | null {
  let real = existing;
  try {
    real = realpathSync(existing);
  } catch {
    // keep the path as given
  }
  const target = join(real, relative(existing, resolve(path)));
  const root = PSEUDO_ROOTS.find((r) => target === r || target.startsWith(`${r}${sep}`));
  if (root) return `is under ${root}, a kernel file system that cannot keep files`;
  try {
    const name = PSEUDO_FS.get(Number(statfsSync(existing).type));
    if (name) return `is on a ${name} file system, which cannot keep files`;
  } catch {
    // statfs is not available everywhere; the path check above stands
  }
  return null;
}

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
    const pseudo = pseudoProblem(path, at);
    if (pseudo) return pseudo;
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
