import type { RunResult, SampleVerdict } from '../probe/probeTypes.js';

export interface RunFilter {
  target?: string;
  probe?: string;
  verdict?: SampleVerdict;
  limit?: number;
}

export interface HistoryLimits {
  /** Runs kept in memory (storage.historySize). */
  maxRuns: number;
  /** Bytes of output text the runs in memory may hold (storage.historyMaxBytes); see textBytes. */
  maxBytes: number;
}

/** Runs on disk, known by their heads (everything but the output text) until one is asked for. */
export interface StoredRuns {
  /** The stored runs without their text, newest first. */
  heads(): readonly RunResult[];
  /** A stored run with its text; null when it is not (or no longer) stored or cannot be read. */
  load(id: string): Promise<RunResult | null>;
  /** Resolves once the stored runs are indexed (the daemon indexes them after it starts listening). */
  indexed?(): Promise<unknown>;
  /** Writes a run to disk (queued; never throws). Absent: the history only reads what is stored. */
  save?(run: RunResult): Promise<void>;
}

/** Runs worth keeping across a restart: those with a failing or erroring sample. */
export function shouldStore(run: RunResult): boolean {
  return run.samples.some((s) => s.verdict === 'fail' || s.verdict === 'error');
}

interface Entry {
  run: RunResult;
  /** Bytes of text counted against maxBytes (0 for a run kept without its text). */
  bytes: number;
  /** The run was larger than maxBytes on its own: kept without its text. */
  textDropped: boolean;
}

const LATIN1_ONLY = /^[\u0000-\u00ff]*$/;

/**
 * Bytes a string's characters take in V8: one per character when every character is
 * Latin-1, two per UTF-16 code unit otherwise (one emoji makes the whole string two-byte).
 */
export function textBytes(s: string): number {
  return LATIN1_ONLY.test(s) ? s.length : 2 * s.length;
}

export function runTextBytes(run: RunResult): number {
  let bytes = 0;
  for (const s of run.samples) bytes += textBytes(s.content) + textBytes(s.reasoning);
  return bytes;
}

/**
 * Recent runs in memory, newest first, bounded by count and by the bytes of their output text:
 * the oldest run leaves first. A run whose text alone is more than the byte budget is kept
 * without its text, with a note on each sample, so the budget holds and the older runs stay.
 * Stored runs (StoredRuns) are listed after the runs in memory and read from disk when asked for.
 */
export class RunHistory {
  private readonly entries: Entry[] = [];
  private bytes = 0;

  constructor(
    private readonly limits: HistoryLimits,
    private readonly stored: StoredRuns | null = null,
  ) {
    const { maxRuns, maxBytes } = limits;
    if (!Number.isInteger(maxRuns) || maxRuns < 1) throw new RangeError(`RunHistory maxRuns must be a positive integer, got ${maxRuns}`);
    if (!Number.isInteger(maxBytes) || maxBytes < 1)
      throw new RangeError(`RunHistory maxBytes must be a positive integer, got ${maxBytes}`);
  }

  /** Bytes of output text held by the runs in memory (never more than maxBytes). */
  get textBytes(): number {
    return this.bytes;
  }

  /** Runs in memory. */
  get size(): number {
    return this.entries.length;
  }

  /** Keeps a finished run in memory, and on disk as well when it failed or erred (shouldStore) and the history has a store that saves. */
  add(run: RunResult): void {
    if (this.stored?.save && shouldStore(run)) void this.stored.save(run);
    const bytes = runTextBytes(run);
    const entry: Entry =
      bytes > this.limits.maxBytes
        ? { run: withoutText(run, bytes, this.limits.maxBytes), bytes: 0, textDropped: true }
        : { run: ownCopy(run), bytes, textDropped: false };
    this.entries.unshift(entry);
    this.bytes += entry.bytes;
    while (this.entries.length > this.limits.maxRuns || this.bytes > this.limits.maxBytes) {
      this.bytes -= this.entries.pop()!.bytes;
    }
  }

  /**
   * A run with its text: from memory, else from disk. A run kept without its text is
   * answered from disk when it was stored there, else as it is kept (with its note).
   */
  async get(id: string): Promise<RunResult | undefined> {
    const entry = this.entries.find((e) => e.run.id === id);
    if (entry && !entry.textDropped) return entry.run;
    await this.storedIndexed();
    const loaded = this.stored ? await this.stored.load(id) : null;
    return loaded ?? entry?.run;
  }

  /** Resolves once the stored runs are indexed: list() lists them all from then on (the /runs route waits for it). */
  async storedIndexed(): Promise<void> {
    await this.stored?.indexed?.();
  }

  /**
   * The runs in memory, newest first, then the stored runs no longer in memory, newest first
   * (those indexed so far: see storedIndexed). Listed runs may lack their text.
   */
  list(filter: RunFilter = {}): RunResult[] {
    const out: RunResult[] = [];
    const limit = filter.limit ?? this.limits.maxRuns;
    const matches = (r: RunResult) =>
      (!filter.target || r.target === filter.target) &&
      (!filter.probe || r.probe === filter.probe) &&
      (!filter.verdict || r.verdict === filter.verdict);
    for (const { run } of this.entries) {
      if (out.length >= limit) return out;
      if (matches(run)) out.push(run);
    }
    if (!this.stored) return out;
    const inMemory = new Set(this.entries.map((e) => e.run.id));
    for (const head of this.stored.heads()) {
      if (out.length >= limit) break;
      if (!inMemory.has(head.id) && matches(head)) out.push(head);
    }
    return out;
  }

  /** Drops the runs in memory of targets or probes that are no longer configured. */
  retain(keep: (run: RunResult) => boolean): void {
    const kept = this.entries.filter((e) => keep(e.run));
    this.entries.length = 0;
    this.entries.push(...kept);
    this.bytes = kept.reduce((sum, e) => sum + e.bytes, 0);
  }
}

/**
 * The run with its text strings as they are (flat, from the stream accumulator) and a deep copy
 * of everything else: an excerpt or unit sliced from a longer string (the reasoning and content
 * joined for the combined analysis) is a view that keeps that whole string alive.
 */
function ownCopy(run: RunResult): RunResult {
  const { samples, ...rest } = run;
  return {
    ...structuredClone(rest),
    samples: samples.map(({ content, reasoning, ...figures }) => ({ ...structuredClone(figures), content, reasoning })),
  };
}

/**
 * The run without its output text, as a deep copy: an excerpt sliced from the text would
 * otherwise keep the whole text alive.
 */
function withoutText(run: RunResult, bytes: number, maxBytes: number): RunResult {
  const note = `output text not kept in memory: this run's ${bytes} bytes of text are more than storage.historyMaxBytes (${maxBytes})`;
  return structuredClone({
    ...run,
    samples: run.samples.map((s) => ({ ...s, content: '', reasoning: '', notes: [...(s.notes ?? []), note] })),
  });
}
