import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunResult, SampleFinding } from '../probe/probeTypes.js';

export interface RunStoreOptions {
  dir: string;
  /** Keep at most this many stored runs (oldest deleted first). */
  maxRuns: number;
  /** Keep at most this many bytes of stored runs (oldest deleted first). */
  maxBytes: number;
  logger: Logger;
}

export interface RunStore {
  /** Writes a run atomically, then applies retention. Never throws: a full disk is logged, not fatal. */
  save(run: RunResult): Promise<void>;
  /** Every readable stored run, oldest first. Unreadable files are logged and skipped; temp files of an interrupted write are removed. */
  loadAll(): Promise<RunResult[]>;
  /** Resolves once every save queued so far is on disk (shutdown waits for it). */
  flush(): Promise<void>;
}

const FILE_RE = /^\d{8}T\d{6}\d{3}Z_[A-Za-z0-9-]{1,64}\.json$/;
const TEMP_RE = /^\d{8}T\d{6}\d{3}Z_[A-Za-z0-9-]{1,64}\.json\.tmp-\d+$/;

/** Runs worth keeping across a restart: those with a failing or erroring sample. */
export function shouldStore(run: RunResult): boolean {
  return run.samples.some((s) => s.verdict === 'fail' || s.verdict === 'error');
}

export function fileNameFor(run: RunResult): string {
  const stamp = run.startedAt.replace(/[-:.]/g, '');
  const safeId = run.id.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'run';
  return `${stamp}_${safeId}.json`;
}

/** Failing runs with their full output text, as one JSON file each in `dir`. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const { dir, logger } = options;
  let ready: Promise<void> | null = null;
  const ensureDir = () => (ready ??= mkdir(dir, { recursive: true }).then(() => undefined));
  // Saves are serialised so retention never races a concurrent write.
  let queue: Promise<void> = Promise.resolve();

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

  async function applyRetention(): Promise<void> {
    const names = (await readdir(dir)).filter((n) => FILE_RE.test(n)).sort();
    const sizes = await Promise.all(names.map(async (n) => (await stat(join(dir, n))).size));
    let count = names.length;
    let bytes = sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < names.length && (count > options.maxRuns || bytes > options.maxBytes); i++) {
      await unlink(join(dir, names[i]!));
      count--;
      bytes -= sizes[i]!;
    }
  }

  return {
    save(run) {
      queue = queue.then(async () => {
        try {
          await ensureDir();
          await writeAtomic(join(dir, fileNameFor(run)), JSON.stringify(run));
          await applyRetention();
        } catch (err) {
          logger.error({ err, run: run.id }, 'could not store run');
        }
      });
      return queue;
    },
    flush() {
      return queue;
    },
    async loadAll() {
      await ensureDir();
      const all = await readdir(dir);
      for (const temp of all.filter((n) => TEMP_RE.test(n))) await unlink(join(dir, temp)).catch(() => undefined);
      const names = all.filter((n) => FILE_RE.test(n)).sort();
      const runs: RunResult[] = [];
      for (const name of names) {
        try {
          const run = JSON.parse(await readFile(join(dir, name), 'utf8')) as RunResult;
          if (!looksLikeRun(run)) throw new Error('not a stored run');
          runs.push(upgradeRun(run));
        } catch (err) {
          logger.warn({ file: name, err: (err as Error).message }, 'skipping unreadable stored run');
        }
      }
      return runs;
    },
  };
}

/** Runs stored by 0.1 list finding kinds as strings: keep them as findings without a place. */
function upgradeRun(run: RunResult): RunResult {
  for (const s of run.samples) {
    if (!Array.isArray(s.findings)) s.findings = [];
    s.findings = s.findings.map((f: SampleFinding | string) =>
      typeof f === 'string'
        ? { kind: f as SampleFinding['kind'], severity: s.verdict === 'fail' ? 'fail' : 'warn', certain: false, atChar: -1, atToken: -1, detail: '', excerpt: '', channel: 'sample' }
        : f);
  }
  return run;
}

/** Enough shape to list and show a run; anything else in the directory is skipped. */
function looksLikeRun(run: unknown): run is RunResult {
  const r = run as Partial<RunResult> | null;
  return (
    typeof r === 'object' && r !== null &&
    typeof r.id === 'string' && typeof r.target === 'string' && typeof r.probe === 'string' &&
    typeof r.verdict === 'string' && typeof r.startedAt === 'string' &&
    Array.isArray(r.samples) && r.samples.every((s) => typeof s === 'object' && s !== null && typeof s.verdict === 'string')
  );
}
