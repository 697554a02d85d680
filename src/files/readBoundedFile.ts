import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reading a file whose path someone else chose (a folder another process shares, a path on
 * the command line) without letting what sits there stop us: a FIFO blocks a plain open
 * until a writer comes, /dev/zero never ends, a 600 MB file is read whole before its size is
 * looked at. The file is opened non-blocking, the opened descriptor is checked (so a swap
 * between a check by name and the open changes nothing), and at most the bound is read.
 */

export type FileRefusedCode = 'ENOENT' | 'EISDIR' | 'EACCES' | 'ELOOP' | 'NOT_REGULAR' | 'TOO_LARGE' | 'UNREADABLE';

/** Why a path is not a regular file within its bound; `code` is stable, the message is a sentence. */
export class FileRefused extends Error {
  constructor(
    message: string,
    readonly code: FileRefusedCode,
    /** The file's size when it was refused for it; the system's error code when open failed otherwise. */
    readonly detail: { size?: number; errno?: string } = {},
  ) {
    super(message);
    this.name = 'FileRefused';
  }
}

export interface BoundedReadOptions {
  /** Largest file read, in bytes; a larger one is refused before a byte is read. */
  maxBytes: number;
  /** Refuse a symbolic link instead of following it (a folder we prune and index). */
  noFollow?: boolean;
}

const KINDS: ReadonlyArray<[(s: import('node:fs').Stats) => boolean, string]> = [
  [(s) => s.isDirectory(), 'is a directory, not a file'],
  [(s) => s.isFIFO(), 'is a named pipe (FIFO), not a regular file'],
  [(s) => s.isSocket(), 'is a socket, not a regular file'],
  [(s) => s.isCharacterDevice() || s.isBlockDevice(), 'is a device, not a regular file'],
  [(s) => s.isSymbolicLink(), 'is a symbolic link (not followed here)'],
];

/** Why a stat is not a regular file within maxBytes, or null. Works on lstat and fstat alike. */
export function fileProblem(stat: import('node:fs').Stats, maxBytes: number): FileRefused | null {
  for (const [is, why] of KINDS) if (is(stat)) return new FileRefused(why, why.startsWith('is a directory') ? 'EISDIR' : 'NOT_REGULAR');
  if (!stat.isFile()) return new FileRefused('is not a regular file', 'NOT_REGULAR');
  if (stat.size > maxBytes)
    return new FileRefused(`is ${stat.size} bytes, more than the ${maxBytes} read at most`, 'TOO_LARGE', { size: stat.size });
  return null;
}

function flags(noFollow: boolean | undefined): number {
  return constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0);
}

/** An open() failure as a FileRefused naming why. */
export function openFailure(err: unknown): FileRefused {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new FileRefused('no such file', 'ENOENT');
    case 'EISDIR':
      return new FileRefused('is a directory, not a file', 'EISDIR');
    case 'EACCES':
    case 'EPERM':
      return new FileRefused('permission denied', 'EACCES');
    case 'ELOOP':
      return new FileRefused('is a symbolic link (not followed here)', 'ELOOP');
    case 'ENXIO':
      // opening a socket, or a FIFO for writing with no reader
      return new FileRefused('is not a regular file (a socket or a device)', 'NOT_REGULAR');
    default:
      return new FileRefused(`cannot be read (${code ?? (err as Error).message})`, 'UNREADABLE', { errno: code ?? (err as Error).message });
  }
}

/** Reads a regular file of at most maxBytes, whole; anything else is refused with a FileRefused. */
export async function readBoundedFile(path: string, options: BoundedReadOptions): Promise<Buffer> {
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await open(path, flags(options.noFollow));
  } catch (err) {
    throw openFailure(err);
  }
  try {
    const stat = await handle.stat();
    const problem = fileProblem(stat, options.maxBytes);
    if (problem) throw problem;
    // Reads until the end of the file or one byte past the bound: a file that grew since
    // fstat is still never read past it.
    const parts: Buffer[] = [];
    let total = 0;
    let block = Buffer.alloc(Math.min(stat.size, options.maxBytes) + 1);
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, Math.min(block.length, options.maxBytes + 1 - total), total);
      if (bytesRead === 0) break;
      parts.push(block.subarray(0, bytesRead));
      total += bytesRead;
      if (total > options.maxBytes) throw new FileRefused(`is more than the ${options.maxBytes} bytes read at most`, 'TOO_LARGE');
      block = Buffer.alloc(64 * 1024);
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  } finally {
    await handle.close();
  }
}

/**
 * Opens a regular file of at most maxBytes for synchronous reads; the caller closes the
 * descriptor. Non-blocking, so a FIFO put in the file's place returns at once and is refused.
 */
export function openBoundedFileSync(path: string, options: BoundedReadOptions): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, flags(options.noFollow));
  } catch (err) {
    throw openFailure(err);
  }
  try {
    const stat = fstatSync(fd);
    const problem = fileProblem(stat, options.maxBytes);
    if (problem) throw problem;
    return { fd, size: stat.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** readBoundedFile, synchronous: for a file read once at start-up or at a reload (a CA bundle, a model). */
export function readBoundedFileSync(path: string, options: BoundedReadOptions): Buffer {
  const { fd } = openBoundedFileSync(path, options);
  try {
    // one byte past the bound: a file that grew since fstat is refused, never read past it
    const bytes = readAtMostSync(fd, 0, options.maxBytes + 1);
    if (bytes.length > options.maxBytes) throw new FileRefused(`is more than the ${options.maxBytes} bytes read at most`, 'TOO_LARGE');
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Reads from an open descriptor at most `limit` bytes from `position` (fewer at the end of the file). */
export function readAtMostSync(fd: number, position: number, limit: number): Buffer {
  const buf = Buffer.allocUnsafe(limit);
  let filled = 0;
  while (filled < limit) {
    const n = readSync(fd, buf, filled, limit - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}
