import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** A key file larger than this is not a key (a mounted directory's wrong file, a device). */
export const KEY_FILE_MAX_BYTES = 64 * 1024;

/**
 * Reads an API key file without blocking the event loop, whatever the path holds: the file
 * is opened non-blocking, and anything but a regular file of at most 64 KiB is refused before
 * a byte is read (a FIFO would block a synchronous read forever, /dev/zero would never end).
 * Errors name the problem, never the content.
 */
export async function readKeyFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw keyFileError('is a directory, not a file');
    if (!stat.isFile()) throw keyFileError('is not a regular file');
    if (stat.size > KEY_FILE_MAX_BYTES) throw keyFileError(`is ${stat.size} bytes, more than a key (${KEY_FILE_MAX_BYTES} at most)`);
    const buf = Buffer.alloc(Math.min(stat.size + 1, KEY_FILE_MAX_BYTES + 1));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    if (bytesRead > KEY_FILE_MAX_BYTES) throw keyFileError(`is more than ${KEY_FILE_MAX_BYTES} bytes`);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function keyFileError(why: string): Error & { code: string } {
  return Object.assign(new Error(why), { code: why });
}

/**
 * Why a key cannot go into an `Authorization: Bearer` header, or null when it can: HTTP
 * header values are visible ASCII, spaces, tabs and Latin-1. Says where the problem is and
 * what it is, never the key.
 */
export function keyProblem(key: string): string | null {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return `holds a line break at character ${i + 1} of ${key.length}`;
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return `holds a control character at character ${i + 1} of ${key.length}`;
    if (c > 0xff) return `holds a character above U+00FF at character ${i + 1} of ${key.length} (a pasted typographic quote or dash?)`;
  }
  return null;
}
