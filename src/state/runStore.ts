import { closeSync, constants, readSync } from 'node:fs';
import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { FileRefused, openBoundedFileSync, readAtMostSync, readBoundedFile } from '../files/readBoundedFile.js';
import type { RunResult } from '../probe/probeTypes.js';
import type { StoredRuns } from './runHistory.js';
import { looksLikeRun, repairRun } from './storedRunShape.js';

export interface RunStoreOptions {
  dir: string;
  /** Keep at most this many stored runs (oldest deleted first). */
  maxRuns: number;
  /** Keep at most this many bytes of stored runs (oldest deleted first); a run larger on its own is stored without its text, or not at all. */
  maxBytes: number;
  logger: Logger;
  /** Called once per run that could not be written (the daemon counts them). */
  onSaveError?: (err: unknown) => void;
  /** Called once per run larger than maxBytes on its own: stored without its text, or not stored (the daemon counts them). */
  onOversized?: (outcome: OversizedOutcome) => void;
}

/** What became of a run larger than storage.maxBytes on its own. */
export type OversizedOutcome = 'stored_without_text' | 'not_stored';

export interface RunStore extends StoredRuns {
  /**
   * Start-up: removes the temp files of an interrupted write, reads the head of each stored run
   * (never its text), then applies retention to the runs it could read. Only regular files are
   * read: a FIFO, socket, device, directory or symbolic link named like a run (even a link to a
   * run in the same folder) is skipped, as is a file that is not a stored run (unreadable, a
   * first line over HEAD_MAX_BYTES, larger than maxBytes). What is skipped is logged once with
   * a count, left in place and not counted: retention never deletes what it did not read. Files
   * of the one-line format of 0.1 are read whole once and rewritten in the current format.
   * Resolves to the number of runs indexed.
   */
  open(): Promise<number>;
  /** Writes a run atomically, then applies retention. Never throws: a full disk is logged, not fatal. */
  save(run: RunResult): Promise<void>;
  /** Resolves once every save queued so far is on disk (shutdown waits for it). */
  flush(): Promise<void>;
  /** Resolves (to the number indexed) once open() has indexed the stored runs; at once when it was never called. */
  indexed(): Promise<number>;
}

const FILE_RE = /^\d{8}T\d{6}\d{3}Z_[A-Za-z0-9-]{1,64}\.json$/;
const TEMP_RE = /^\d{8}T\d{6}\d{3}Z_[A-Za-z0-9-]{1,64}\.json\.tmp-\d+$/;
/** The head of a stored file: the run without its output text. */
const FORMAT = 2;
const HEAD_READ_BYTES = 16 * 1024;
/**
 * Longest first line read as a head. Heads of real runs are a few KB per sample (20 samples of
 * findings and figures: ~100 KB); the read is synchronous, and a 200 MB file without a line
 * break held the event loop 1.1 s at start-up: past this bound it is not a stored run.
 */
export const HEAD_MAX_BYTES = 1024 * 1024;
/** Largest file of 0.1's one-line format read (whole, once): its JSON.parse holds the loop. */
export const OLD_FORMAT_MAX_BYTES = 4 * 1024 * 1024;
/** Stored files indexed per turn of the event loop at start-up. */
const INDEX_BATCH = 32;

export function fileNameFor(run: RunResult): string {
  const stamp = run.startedAt.replace(/[-:.]/g, '');
  const safeId = run.id.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'run';
  return `${stamp}_${safeId}.json`;
}

/**
 * A stored run: two JSON lines. The first is `{"format":2,"run":...}`, the run without its
 * output text (what /runs lists); the second is `{"samples":[{"content","reasoning"}...]}`.
 * Start-up reads first lines only; the text is read when the run is asked for.
 */
export function encodeStoredRun(run: RunResult): string {
  return `${headLine(run)}\n${JSON.stringify({ samples: run.samples.map((s) => ({ content: s.content, reasoning: s.reasoning })) })}\n`;
}

function headLine(run: RunResult): string {
  // content and reasoning are left out of the head, whatever their order in the object
  const samples = run.samples.map((s) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'content' && k !== 'reasoning')));
  return JSON.stringify({ format: FORMAT, run: { ...run, samples } });
}

/** The run stored without its text, a note on each sample saying why. */
function withoutText(run: RunResult, bytes: number, maxBytes: number): RunResult {
  const note = `output text not stored: this run takes ${bytes} bytes, more than storage.maxBytes (${maxBytes}) on its own`;
  return { ...run, samples: run.samples.map((s) => ({ ...s, content: '', reasoning: '', notes: [...s.notes, note] })) };
}

/** A head as read back: the run with empty text (content and reasoning are on the second line). */
function decodeHead(line: string): RunResult | null {
  const parsed = JSON.parse(line) as { format?: unknown; run?: unknown };
  if (parsed.format !== FORMAT) return null;
  if (!looksLikeRun(parsed.run)) throw new Error('not a stored run');
  for (const s of parsed.run.samples) {
    s.content = '';
    s.reasoning = '';
  }
  return repairRun(parsed.run);
}

/**
 * A whole stored file. A text line that cannot be read (a write cut short, a disk error) leaves
 * the run as its head says, with a note on each sample: the run /runs lists still opens.
 */
function decodeBody(data: string): RunResult {
  const cut = data.indexOf('\n');
  const head = decodeHead(cut < 0 ? data : data.slice(0, cut));
  if (!head) return decodeOldFormat(data);
  let texts: { content?: unknown; reasoning?: unknown }[] = [];
  let damage = '';
  try {
    const parsed = JSON.parse(data.slice(cut + 1)) as { samples?: unknown } | null;
    if (typeof parsed === 'object' && parsed !== null && Array.isArray(parsed.samples)) texts = parsed.samples;
    else damage = 'it is not a list of samples';
  } catch (err) {
    damage = cut < 0 ? 'the file ends after its first line' : (err as Error).message;
  }
  head.samples.forEach((s, i) => {
    if (damage) {
      s.notes.push(`the stored output text could not be read (${damage}): figures, findings and reasons are the run's own`);
      return;
    }
    const t = texts[i];
    s.content = typeof t?.content === 'string' ? t.content : '';
    s.reasoning = typeof t?.reasoning === 'string' ? t.reasoning : '';
  });
  return head;
}

/** 0.1 stored a run as one JSON object, its text among the rest. */
function decodeOldFormat(data: string): RunResult {
  const run = JSON.parse(data) as unknown;
  if (!looksLikeRun(run)) throw new Error('not a stored run');
  return repairRun(run);
}

interface Indexed {
  name: string;
  head: RunResult;
  /** Bytes of the file, counted against maxBytes. */
  bytes: number;
}

/** Why start-up skipped a file named like a stored run. */
type SkipKind = 'not_regular' | 'oversize' | 'unreadable';

class Skipped extends Error {
  constructor(
    readonly kind: SkipKind,
    message: string,
  ) {
    super(message);
  }
}

/** Files named in the one line that reports what start-up skipped. */
const SKIPPED_NAMED = 10;

function entryKind(e: import('node:fs').Dirent): string {
  if (e.isSymbolicLink()) return 'is a symbolic link (not followed in storage.dir)';
  if (e.isDirectory()) return 'is a directory';
  if (e.isFIFO()) return 'is a named pipe (FIFO)';
  if (e.isSocket()) return 'is a socket';
  if (e.isCharacterDevice() || e.isBlockDevice()) return 'is a device';
  return 'is not a regular file';
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Failing runs with their full output text, as one file each in `dir`; only their heads are kept in memory. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { dir, logger } = options;
  // At every write, not once: a directory removed while the daemon runs is made again, and a
  // failure (read-only, a file in its place) is retried at the next run instead of remembered.
  // Made owner-only (the runs hold model output): the default folder sits in whatever working
  // directory the daemon was started from. A folder that exists keeps its mode.
  const ensureDir = () => mkdir(dir, { recursive: true, mode: 0o700 }).then(() => undefined);
  // Saves are serialised so retention never races a concurrent write.
  let queue: Promise<void> = Promise.resolve();
  /** The stored runs read, oldest first, as the file names sort; retention reads and deletes only these. */
  let index: Indexed[] = [];
  const byId = new Map<string, Indexed>();

  function forget(names: ReadonlySet<string>): void {
    if (names.size === 0) return;
    index = index.filter((e) => {
      if (!names.has(e.name)) return true;
      if (byId.get(e.head.id) === e) byId.delete(e.head.id);
      return false;
    });
  }

  function remember(entry: Indexed): void {
    const previous = byId.get(entry.head.id);
    if (previous) forget(new Set([previous.name]));
    const sameName = index.findIndex((e) => e.name === entry.name);
    if (sameName >= 0) index.splice(sameName, 1);
    index.push(entry);
    // new runs start after the stored ones: appending keeps the order, except for a clock set back
    if (index.length > 1 && index[index.length - 2]!.name > entry.name) index.sort(byName);
    byId.set(entry.head.id, entry);
  }

  async function writeAtomic(file: string, data: string): Promise<void> {
    const tmp = `${file}.tmp-${process.pid}`;
    try {
      // Made new, never opened through what is already there: a link or a FIFO put at this
      // name is replaced, not written through or waited on.
      await unlink(tmp).catch(() => undefined);
      const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      try {
        await handle.writeFile(data, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
    } catch (err) {
      // a full disk must not leave half a run behind until the next start
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Deletes the oldest indexed runs beyond maxRuns or maxBytes, never `keep` (the run just
   * saved) and never a file it did not read. Returns the names deleted.
   */
  async function applyRetention(keep?: string): Promise<Set<string>> {
    let count = index.length;
    let bytes = index.reduce((sum, e) => sum + e.bytes, 0);
    const deleted = new Set<string>();
    for (const e of index) {
      if (count <= options.maxRuns && bytes <= options.maxBytes) break;
      if (e.name === keep) continue;
      await unlink(join(dir, e.name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      deleted.add(e.name);
      count--;
      bytes -= e.bytes;
    }
    forget(deleted);
    return deleted;
  }

  /**
   * The first line of a file, read in blocks, at most HEAD_MAX_BYTES; `whole` when the file
   * ended first (0.1's format has no line break). Synchronous: a thousand small reads through
   * the thread pool cost several times more than the reads themselves, and the bound keeps
   * each file to a millisecond or so.
   */
  function readFirstLine(fd: number): { line: string; whole: boolean } | null {
    const blocks: Buffer[] = [];
    let position = 0;
    while (position < HEAD_MAX_BYTES) {
      const block = Buffer.allocUnsafe(HEAD_READ_BYTES);
      const bytesRead = readSync(fd, block, 0, HEAD_READ_BYTES, position);
      if (bytesRead === 0) return { line: Buffer.concat(blocks).toString('utf8'), whole: true };
      const end = block.subarray(0, bytesRead).indexOf(0x0a);
      if (end >= 0) {
        blocks.push(block.subarray(0, end));
        return { line: Buffer.concat(blocks).toString('utf8'), whole: false };
      }
      blocks.push(block.subarray(0, bytesRead));
      position += bytesRead;
    }
    return null;
  }

  /**
   * The head of a stored run and the bytes of its file. The file is opened without following
   * a link and without blocking, and the descriptor is checked before a byte is read: whatever
   * was put in the file's place since readdir is refused, never waited on or read without end.
   */
  async function readHead(name: string): Promise<{ head: RunResult; bytes: number }> {
    let opened: { fd: number; size: number };
    try {
      opened = openBoundedFileSync(join(dir, name), { maxBytes: options.maxBytes, noFollow: true });
    } catch (err) {
      if (!(err instanceof FileRefused)) throw err;
      if (err.code === 'TOO_LARGE') throw new Skipped('oversize', `larger than storage.maxBytes (${err.detail.size} bytes)`);
      if (err.code === 'NOT_REGULAR' || err.code === 'ELOOP' || err.code === 'EISDIR') throw new Skipped('not_regular', err.message);
      throw err;
    }
    const { fd, size: bytes } = opened;
    let data: string;
    try {
      const first = readFirstLine(fd);
      if (first !== null) {
        const head = decodeHead(first.line);
        if (head) return { head, bytes };
        if (!first.whole) throw new Error('not a stored run');
        data = first.line;
      } else {
        // no line break early on: 0.1's one-line format if it is small enough to parse, else not a run
        if (bytes > OLD_FORMAT_MAX_BYTES) throw new Error(`no line break in its first ${HEAD_MAX_BYTES} bytes`);
        data = readAtMostSync(fd, 0, OLD_FORMAT_MAX_BYTES).toString('utf8');
      }
    } finally {
      closeSync(fd);
    }
    return { head: await upgradeOldFormat(name, data), bytes };
  }

  /** 0.1's one-line format: read whole this once, then stored again in the current format (when that fails, the file is read whole at each start). */
  async function upgradeOldFormat(name: string, data: string): Promise<RunResult> {
    const run = decodeOldFormat(data);
    await writeAtomic(join(dir, name), encodeStoredRun(run)).catch((err: Error) =>
      logger.warn({ file: name, err: err.message }, 'could not rewrite a stored run of 0.1'),
    );
    return decodeHead(headLine(run))!;
  }

  let opened: Promise<number> | null = null;
  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const done = queue.then(task);
    queue = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  };

  /**
   * What start-up skipped, logged as one line with counts and the first few files: a folder
   * filled with thousands of strays must not fill the log too.
   */
  const logSkipped = (skipped: { file: string; why: string; kind: SkipKind }[]) => {
    if (skipped.length === 0) return;
    const counts: Record<SkipKind, number> = { not_regular: 0, oversize: 0, unreadable: 0 };
    for (const s of skipped) counts[s.kind]++;
    logger.warn(
      { dir, skipped: skipped.length, ...counts, files: skipped.slice(0, SKIPPED_NAMED).map((s) => ({ file: s.file, err: s.why })) },
      `skipping ${skipped.length} file${skipped.length === 1 ? '' : 's'} named like stored runs that ${skipped.length === 1 ? 'is' : 'are'} not (not a regular file: ${counts.not_regular}, larger than storage.maxBytes: ${counts.oversize}, unreadable: ${counts.unreadable}): left in place, not listed, not counted against storage.maxBytes`,
    );
  };

  async function save(run: RunResult): Promise<void> {
    try {
      await ensureDir();
      const name = fileNameFor(run);
      let data = encodeStoredRun(run);
      let bytes = Buffer.byteLength(data);
      if (bytes > options.maxBytes) {
        // Making room for a run the budget cannot hold would delete every other run and then it too.
        const bare = encodeStoredRun(withoutText(run, bytes, options.maxBytes));
        const outcome: OversizedOutcome = Buffer.byteLength(bare) <= options.maxBytes ? 'stored_without_text' : 'not_stored';
        logger.warn(
          { run: run.id, bytes, maxBytes: options.maxBytes, outcome },
          outcome === 'not_stored'
            ? 'run not stored: even without its text it is larger than storage.maxBytes'
            : 'run stored without its output text: it is larger than storage.maxBytes on its own',
        );
        options.onOversized?.(outcome);
        if (outcome === 'not_stored') return;
        data = bare;
        bytes = Buffer.byteLength(bare);
      }
      await writeAtomic(join(dir, name), data);
      // the head as it will be read back: a copy that holds none of the run's strings
      remember({ name, head: decodeHead(data.slice(0, data.indexOf('\n')))!, bytes });
      await applyRetention(name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      logger.error({ err, run: run.id, dir, code }, 'could not store run: it is kept in memory only and lost at restart');
      options.onSaveError?.(err);
    }
  }

  return {
    open() {
      opened = enqueue(async () => {
        await ensureDir();
        // The entry types come with the names (no stat per file): what is not a regular file is
        // never opened, and a temp file is deleted only when it is one (unlink never follows a link).
        const all = await readdir(dir, { withFileTypes: true });
        for (const temp of all.filter((e) => e.isFile() && TEMP_RE.test(e.name))) await unlink(join(dir, temp.name)).catch(() => undefined);
        const entries = all.filter((e) => FILE_RE.test(e.name)).sort(byName);
        index = [];
        byId.clear();
        const skipped: { file: string; why: string; kind: SkipKind }[] = [];
        for (let i = 0; i < entries.length; i++) {
          const entry = entries[i]!;
          // the reads are synchronous (cheaper than through the thread pool): let the event loop
          // answer health checks and scrapes between batches when the daemon indexes after listening
          if (i > 0 && i % INDEX_BATCH === 0) await new Promise((r) => setImmediate(r));
          if (!entry.isFile()) {
            skipped.push({ file: entry.name, why: entryKind(entry), kind: 'not_regular' });
            continue;
          }
          try {
            const { head, bytes } = await readHead(entry.name);
            remember({ name: entry.name, head, bytes });
          } catch (err) {
            skipped.push({ file: entry.name, why: (err as Error).message, kind: err instanceof Skipped ? err.kind : 'unreadable' });
          }
        }
        logSkipped(skipped);
        const deleted = await applyRetention();
        if (deleted.size > 0)
          logger.info({ dir, deleted: deleted.size }, 'stored runs beyond storage.maxRuns or storage.maxBytes deleted, oldest first');
        return index.length;
      });
      return opened;
    },
    indexed() {
      // a failed index (logged by the caller) lists no stored runs; it never fails a request
      return (opened ?? Promise.resolve(0)).catch(() => 0);
    },
    save(run) {
      return enqueue(() => save(run));
    },
    flush() {
      return queue;
    },
    heads() {
      const out: RunResult[] = [];
      for (let i = index.length - 1; i >= 0; i--) out.push(index[i]!.head);
      return out;
    },
    async load(id) {
      const entry = byId.get(id);
      if (!entry) return null;
      try {
        // read as at start-up: never a link, never blocking, never more than storage.maxBytes
        const data = await readBoundedFile(join(dir, entry.name), { maxBytes: options.maxBytes, noFollow: true });
        return decodeBody(data.toString('utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null; // removed by retention meanwhile
        // the head read at start-up is what /runs listed: answer with it rather than a 404
        logger.warn({ file: entry.name, err: (err as Error).message }, 'could not read stored run: answering with its head');
        const head = structuredClone(entry.head);
        for (const s of head.samples)
          s.notes.push(`the stored run could not be read again (${(err as Error).message}): its output text is not shown`);
        return head;
      }
    },
  };
}
