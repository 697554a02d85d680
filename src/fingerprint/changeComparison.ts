/**
 * Before and after a target's fingerprint changed: the figures of the last samples before the
 * change, per target × probe, against the samples since. Bounded: BEFORE_SAMPLES before, the
 * last AFTER_SAMPLES after; one comparison per pair (the next change starts a new one).
 */

/** Samples kept of each pair before a change (the issue asks for at least 10). */
export const BEFORE_SAMPLES = 20;
/** Samples since the change the figures are of (the newest). */
export const AFTER_SAMPLES = 50;

/** What one sample adds to the comparison (probe/sampleFigures.ts reads them off a sample). */
export interface SampleFigures {
  failed: boolean;
  errored: boolean;
  /** A loop or stutter finding (repetition kinds, char_flood, stutter): the "faster but broken" signal. */
  loop: boolean;
  onsetToken: number | null;
  recall: number | null;
  /** A golden sample's answer: 1 right, 0 wrong; null for other samples (and errored ones). */
  golden?: number | null;
  /** Failed checks / judged checks of a conformance sample. */
  conformanceFailed: number | null;
  ttftSeconds: number | null;
  /** Mean gap between output tokens after the first: (duration − TTFT) / (tokens − 1). */
  itlSeconds: number | null;
}

/** The figures of one side of a change. Ratios are 0–1; null where no sample had the figure. */
export interface PeriodSummary {
  samples: number;
  failed: number;
  errored: number;
  failedRatio: number;
  loopRatio: number;
  /** Median output token at which a loop starts, over the samples that had one. */
  onsetTokens: number | null;
  recallRatio: number | null;
  /** Share of golden answers that were right. */
  goldenCorrectRatio: number | null;
  conformanceFailedRatio: number | null;
  ttftSeconds: number | null;
  itlSeconds: number | null;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
const present = (values: ReadonlyArray<number | null>): number[] => values.filter((v): v is number => v !== null);

export function summarize(samples: readonly SampleFigures[]): PeriodSummary {
  const n = samples.length;
  const failed = samples.filter((s) => s.failed).length;
  return {
    samples: n,
    failed,
    errored: samples.filter((s) => s.errored).length,
    failedRatio: n === 0 ? 0 : failed / n,
    loopRatio: n === 0 ? 0 : samples.filter((s) => s.loop).length / n,
    onsetTokens: median(present(samples.map((s) => s.onsetToken))),
    recallRatio: mean(present(samples.map((s) => s.recall))),
    goldenCorrectRatio: mean(present(samples.map((s) => s.golden ?? null))),
    conformanceFailedRatio: mean(present(samples.map((s) => s.conformanceFailed))),
    ttftSeconds: median(present(samples.map((s) => s.ttftSeconds))),
    itlSeconds: median(present(samples.map((s) => s.itlSeconds))),
  };
}

/** A pair's comparison across the last change of its target. */
export interface Comparison {
  target: string;
  probe: string;
  /** When the change was seen (ms since the epoch). */
  changedAtMs: number;
  /** What changed, one line (describeChanges). */
  what: string;
  before: PeriodSummary;
  after: PeriodSummary;
}

interface Pair {
  recent: SampleFigures[];
  change: { atMs: number; what: string; before: SampleFigures[]; after: SampleFigures[] } | null;
}

const key = (target: string, probe: string) => `${target}\u0000${probe}`;

export class ChangeComparison {
  private readonly pairs = new Map<string, Pair>();

  private pair(target: string, probe: string): Pair {
    let p = this.pairs.get(key(target, probe));
    if (!p) {
      p = { recent: [], change: null };
      this.pairs.set(key(target, probe), p);
    }
    return p;
  }

  /** Adds a run's samples to its pair: to the comparison's after side when there was a change, and to the recent ones. */
  record(target: string, probe: string, samples: readonly SampleFigures[]): void {
    const p = this.pair(target, probe);
    for (const s of samples) {
      p.recent.push(s);
      p.change?.after.push(s);
    }
    if (p.recent.length > BEFORE_SAMPLES) p.recent.splice(0, p.recent.length - BEFORE_SAMPLES);
    if (p.change && p.change.after.length > AFTER_SAMPLES) p.change.after.splice(0, p.change.after.length - AFTER_SAMPLES);
  }

  /**
   * The target's fingerprint changed: each of its pairs with samples starts a comparison, the
   * samples so far on the before side. A pair with none yet has nothing to compare.
   */
  markChange(target: string, atMs: number, what: string): void {
    for (const [k, p] of this.pairs) {
      if (!k.startsWith(`${target}\u0000`) || p.recent.length === 0) continue;
      p.change = { atMs, what, before: [...p.recent], after: [] };
      p.recent = [];
    }
  }

  comparison(target: string, probe: string): Comparison | null {
    const c = this.pairs.get(key(target, probe))?.change;
    if (!c) return null;
    return { target, probe, changedAtMs: c.atMs, what: c.what, before: summarize(c.before), after: summarize(c.after) };
  }

  all(): Comparison[] {
    return [...this.pairs.keys()].flatMap((k) => {
      const [target, probe] = k.split('\u0000') as [string, string];
      return this.comparison(target, probe) ?? [];
    });
  }

  /** Forgets every pair of a target (its baseUrl or model changed); returns their probes. */
  forgetTarget(target: string): string[] {
    const probes: string[] = [];
    for (const k of [...this.pairs.keys()]) {
      if (!k.startsWith(`${target}\u0000`)) continue;
      this.pairs.delete(k);
      probes.push(k.slice(target.length + 1));
    }
    return probes;
  }

  /** Forgets a pair (removed by a reload). */
  forget(target: string, probe: string): void {
    this.pairs.delete(key(target, probe));
  }
}
