import { accessSync, constants, statSync } from 'node:fs';

/**
 * Says why a file the config names (apiKeyFile, tls.caFile) cannot be used, or null when
 * it can. Validation takes this as a parameter so tests and `check-config` on another
 * machine can swap it. Only metadata is looked at: the file's content (a key) is never read.
 */
export type FileCheck = (path: string, maxBytes?: number) => string | null;

export const checkReadableFile: FileCheck = (path, maxBytes) => {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) return 'is a directory, not a file';
    if (!stat.isFile()) return 'is not a regular file';
    // A Secret mounted before its key was filled in shows up as an empty file.
    if (stat.size === 0) return 'is empty';
    if (maxBytes !== undefined && stat.size > maxBytes) return `is ${stat.size} bytes, more than the ${maxBytes} read at most`;
    accessSync(path, constants.R_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    switch (code) {
      case 'ENOENT':
      case 'ENOTDIR':
        return 'does not exist';
      case 'EACCES':
      case 'EPERM':
        return 'cannot be read (permission denied)';
      default:
        return `cannot be read (${code ?? 'unknown error'})`;
    }
  }
};
