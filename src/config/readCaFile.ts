import { readBoundedFileSync } from '../files/readBoundedFile.js';

/** Largest CA file read: the whole Mozilla bundle is about 220 KB; a corporate one with many intermediates stays well under. */
export const CA_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A target's tls.caFile, read bounded and non-blocking (the config's check looked at it by
 * name; whatever sits at the path when it is read, a FIFO, a device or a huge file, is refused
 * with the path and the reason, never read without end).
 */
export function readCaFile(path: string): Buffer {
  try {
    return readBoundedFileSync(path, { maxBytes: CA_FILE_MAX_BYTES });
  } catch (err) {
    throw new Error(`tls.caFile ${JSON.stringify(path)} ${(err as Error).message}`);
  }
}
