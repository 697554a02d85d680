import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readBoundedFile } from '../files/readBoundedFile.js';
import type { Baseline } from './baselineFormat.js';
import { parseBaseline, type ParsedBaseline } from './parseBaseline.js';

/** Largest baseline read: 20 samples × 20k tokens of a few probes fit many times over. */
export const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/**
 * Reads and checks a baseline file; an unreadable one is an error naming why (no such file, a
 * directory, a FIFO or device, too large). The size is checked on the opened file before a
 * byte is read, and no more than MAX_BASELINE_BYTES is ever read (/dev/zero has no end).
 */
export async function readBaselineFile(path: string): Promise<ParsedBaseline> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(path, { maxBytes: MAX_BASELINE_BYTES });
  } catch (err) {
    if ((err as { code?: string }).code === 'TOO_LARGE')
      return { ok: false, kind: 'corrupt', error: `larger than ${MAX_BASELINE_BYTES} bytes: not a baseline` };
    return { ok: false, kind: 'corrupt', error: `cannot read it: ${(err as Error).message}` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, kind: 'corrupt', error: 'not UTF-8 text' };
  }
  return parseBaseline(text);
}

/**
 * Writes a baseline atomically: into a temporary file beside the target, then renamed over
 * it, so a reader (or a crash) never sees half a file; the temporary file goes on failure.
 */
export async function writeBaselineFile(path: string, baseline: Baseline): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, `${JSON.stringify(baseline, null, 1)}\n`, { flag: 'wx', mode: 0o644 });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Why a baseline cannot be written at `path` (checked before the run, so no tokens are spent for nothing), or null. */
export async function saveProblem(path: string): Promise<string | null> {
  const { stat } = await import('node:fs/promises');
  const dir = dirname(path);
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) return `the folder ${dir} does not exist`;
  const target = await stat(path).catch(() => null);
  if (target?.isDirectory()) return 'is a directory';
  return null;
}
