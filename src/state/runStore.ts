import { closeSync, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunResult, SampleFinding } from '../probe/probeTypes.js';
import type { StoredRuns } from './runHistory.js';

export interface RunStoreOptions {
  dir: string;
  /** Keep at most this many stored runs (oldest deleted first). */
  maxRuns: number;
  /** Keep at most this many bytes of stored runs (oldest deleted first). */
  maxBytes: number;
  logger: Logger;
  /** Called once per run that could not be written (the daemon counts them). */
  onSaveError?: (err: unknown) => void;
}

export interface RunStore extends StoredRuns {
  /**
   * Start-up: removes the temp files of an interrupted write, applies retention (by file names
   * and sizes, nothing parsed), then reads the head of each kept file, never its text. Files
   * of the one-line format of 0.1 are read whole once and rewritten in the current format.
   * Unreadable files are logged and skipped. Resolves to the number of runs indexed.
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
/** Stored files indexed per turn of the event loop at start-up. */
const INDEX_BATCH = 32;

/** Runs worth keeping across a restart: those with a failing or erroring sample. */
export function shouldStore(run: RunResult): boolean {
  return run.samples.some((s) => s.verdict === 'fail' || s.verdict === 'error');
}

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

/** A head as read back: the run with empty text (content and reasoning are on the second line). */
function decodeHead(line: string): RunResult | null {
  const parsed = JSON.parse(line) as { format?: unknown; run?: unknown };
  if (parsed.format !== FORMAT) return null;
  if (!looksLikeRun(parsed.run)) throw new Error('not a stored run');
  for (const s of parsed.run.samples) {
    s.content = '';
    s.reasoning = '';
  }
  return upgradeRun(parsed.run);
}

function decodeBody(data: string): RunResult {
  const cut = data.indexOf('\n');
  const head = decodeHead(cut < 0 ? data : data.slice(0, cut));
  if (!head) return decodeOldFormat(data);
  const text = JSON.parse(data.slice(cut + 1)) as { samples?: { content?: unknown; reasoning?: unknown }[] };
  head.samples.forEach((s, i) => {
    const t = text.samples?.[i];
    s.content = typeof t?.content === 'string' ? t.content : '';
    s.reasoning = typeof t?.reasoning === 'string' ? t.reasoning : '';
  });
  return head;
}

/** 0.1 stored a run as one JSON object, its text among the rest. */
function decodeOldFormat(data: string): RunResult {
  const run = JSON.parse(data) as unknown;
  if (!looksLikeRun(run)) throw new Error('not a stored run');
  for (const s of run.samples) {
    if (typeof s.content !== 'string') s.content = '';
    if (typeof s.reasoning !== 'string') s.reasoning = '';
  }
  return upgradeRun(run);
}

interface Indexed {
  name: string;
  head: RunResult;
}

/** Failing runs with their full output text, as one file each in `dir`; only their heads are kept in memory. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { dir, logger } = options;
  // At every write, not once: a directory removed while the daemon runs is made again, and a
  // failure (read-only, a file in its place) is retried at the next run instead of remembered.
  const ensureDir = () => mkdir(dir, { recursive: true }).then(() => undefined);
  // Saves are serialised so retention never races a concurrent write.
  let queue: Promise<void> = Promise.resolve();
  /** Oldest first, as the file names sort. */
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

  function remember(name: string, head: RunResult): void {
    const entry = { name, head };
    const previous = byId.get(head.id);
    if (previous) forget(new Set([previous.name]));
    // new runs start after the stored ones: appending keeps the order, except for a clock set back
    if (index.length > 0 && index[index.length - 1]!.name > name) {
      index.push(entry);
      index.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } else {
      index.push(entry);
    }
    byId.set(head.id, entry);
  }

  async function writeAtomic(file: string, data: string): Promise<void> {
    const tmp = `${file}.tmp-${process.pid}`;
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  }

  /** Deletes the oldest files beyond maxRuns or maxBytes, by name and size only. Returns the names deleted. */
  async function applyRetention(): Promise<Set<string>> {
    const names = (await readdir(dir)).filter((n) => FILE_RE.test(n)).sort();
    const sizes = await Promise.all(names.map(async (n) => (await stat(join(dir, n))).size));
    let count = names.length;
    let bytes = sizes.reduce((a, b) => a + b, 0);
    const deleted = new Set<string>();
    for (let i = 0; i < names.length && (count > options.maxRuns || bytes > options.maxBytes); i++) {
      await unlink(join(dir, names[i]!));
      deleted.add(names[i]!);
      count--;
      bytes -= sizes[i]!;
    }
    return deleted;
  }

  /**
   * The first line of a file, read in blocks; the whole file when it has no line break (0.1's
   * format). Synchronous: it runs at start-up, before the server listens, where a thousand
   * small reads through the thread pool cost several times more than the reads themselves.
   */
  function readFirstLine(file: string): { line: string; whole: boolean } {
    const fd = openSync(file, 'r');
    try {
      const blocks: Buffer[] = [];
      let position = 0;
      for (;;) {
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
    } finally {
      closeSync(fd);
    }
  }

  async function readHead(name: string): Promise<RunResult> {
    const file = join(dir, name);
    const { line, whole } = readFirstLine(file);
    const head = decodeHead(line);
    if (head) return head;
    if (!whole) throw new Error('not a stored run');
    // 0.1's one-line format: read whole this once, then stored again in the current format
    // (when that fails, the file stays as it is and is read whole at each start)
    const run = decodeOldFormat(line);
    await writeAtomic(file, encodeStoredRun(run)).catch((err: Error) =>
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

  return {
    open() {
      opened = enqueue(async () => {
        await ensureDir();
        const all = await readdir(dir);
        for (const temp of all.filter((n) => TEMP_RE.test(n))) await unlink(join(dir, temp)).catch(() => undefined);
        const deleted = await applyRetention();
        const names = all.filter((n) => FILE_RE.test(n) && !deleted.has(n)).sort();
        index = [];
        byId.clear();
        for (let i = 0; i < names.length; i++) {
          const name = names[i]!;
          // the reads are synchronous (cheaper than through the thread pool): let the event loop
          // answer health checks and scrapes between batches when the daemon indexes after listening
          if (i > 0 && i % INDEX_BATCH === 0) await new Promise((r) => setImmediate(r));
          try {
            remember(name, await readHead(name));
          } catch (err) {
            logger.warn({ file: name, err: (err as Error).message }, 'skipping unreadable stored run');
          }
        }
        return index.length;
      });
      return opened;
    },
    indexed() {
      // a failed index (logged by the caller) lists no stored runs; it never fails a request
      return (opened ?? Promise.resolve(0)).catch(() => 0);
    },
    save(run) {
      return enqueue(async () => {
        try {
          await ensureDir();
          const name = fileNameFor(run);
          const data = encodeStoredRun(run);
          await writeAtomic(join(dir, name), data);
          // the head as it will be read back: a copy that holds none of the run's strings
          remember(name, decodeHead(data.slice(0, data.indexOf('\n')))!);
          forget(await applyRetention());
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          logger.error({ err, run: run.id, dir, code }, 'could not store run: it is kept in memory only and lost at restart');
          options.onSaveError?.(err);
        }
      });
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
        return decodeBody(await readFile(join(dir, entry.name), 'utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null; // removed by retention meanwhile
        logger.warn({ file: entry.name, err: (err as Error).message }, 'could not read stored run');
        return null;
      }
    },
  };
}

/** Runs stored by 0.1 list finding kinds as strings: keep them as findings without a place. */
function upgradeRun(run: RunResult): RunResult {
  for (const s of run.samples) {
    if (!Array.isArray(s.findings)) s.findings = [];
    s.findings = s.findings.map((f: SampleFinding | string) =>
      typeof f === 'string'
        ? {
            kind: f as SampleFinding['kind'],
            severity: s.verdict === 'fail' ? 'fail' : 'warn',
            certain: false,
            atChar: -1,
            atToken: -1,
            detail: '',
            excerpt: '',
            channel: 'sample',
          }
        : f,
    );
  }
  return run;
}

/** Enough shape to list and show a run; anything else in the directory is skipped. */
function looksLikeRun(run: unknown): run is RunResult {
  const r = run as Partial<RunResult> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.id === 'string' &&
    typeof r.target === 'string' &&
    typeof r.probe === 'string' &&
    typeof r.verdict === 'string' &&
    typeof r.startedAt === 'string' &&
    Array.isArray(r.samples) &&
    r.samples.every((s) => typeof s === 'object' && s !== null && typeof s.verdict === 'string')
  );
}
