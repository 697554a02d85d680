/**
 * How much worse a run may be than its baseline before `probe --baseline` exits 1. One row a
 * figure: its flag, its default and why; docs/baselines.md and `probe --help` show the same.
 * Shares are fractions (0.1 = ten points of a failed share, or 10% of a latency).
 */
export interface Tolerances {
  /** Largest rise of the failed-sample share (fail, or warn with --fail-on warn) that passes. */
  failedRise: number;
  /** Largest relative drop of the earliest collapse onset that passes (0.25: from token 4000 to 3000). */
  onsetDrop: number;
  /** Largest drop of the recalled share of facts that passes. */
  recallDrop: number;
  /** Largest relative rise of the median time to first token that passes; null: reported, never a failure. */
  ttftRise: number | null;
  /** Largest relative rise of the median inter-token latency that passes; null: reported, never a failure. */
  itlRise: number | null;
  /** An output at temperature 0 that departs from the baseline's fails the gate. */
  failOnDivergence: boolean;
}

type NumericKey = Exclude<keyof Tolerances, 'failOnDivergence'>;

interface ToleranceRow {
  key: NumericKey;
  flag: string;
  default: number | null;
  /** Largest value the flag takes (shares of a share stop at 1; latencies may double and more). */
  max: number;
  /** What it bounds, for --help and docs/baselines.md. */
  meaning: string;
  why: string;
}

export const TOLERANCE_ROWS: readonly ToleranceRow[] = [
  {
    key: 'failedRise',
    meaning: 'rise of the failed-sample share',
    flag: 'max-failed-rise',
    default: 0,
    max: 1,
    why: 'a sample failing where the baseline passed is the regression the gate exists for',
  },
  {
    key: 'onsetDrop',
    meaning: 'relative drop of the earliest collapse onset',
    flag: 'max-onset-drop',
    default: 0.25,
    max: 1,
    why: 'a loop that starts a quarter earlier is worse; sampling moves the onset by less on most models',
  },
  {
    key: 'recallDrop',
    meaning: 'drop of the share of facts recalled',
    flag: 'max-recall-drop',
    default: 0,
    max: 1,
    why: 'recall probes are seeded: the same conversation, so one fact lost is a change',
  },
  {
    key: 'ttftRise',
    meaning: 'relative rise of the median time to first token',
    flag: 'max-ttft-rise',
    default: null,
    max: 100,
    why: 'latency moves with load and network; off unless asked (e.g. 0.5: 50% slower fails)',
  },
  {
    key: 'itlRise',
    meaning: 'relative rise of the median inter-token latency',
    flag: 'max-itl-rise',
    default: null,
    max: 100,
    why: 'as for TTFT; a build that got faster is never a failure by itself',
  },
];

export const DEFAULT_TOLERANCES: Tolerances = {
  ...(Object.fromEntries(TOLERANCE_ROWS.map((r) => [r.key, r.default])) as Record<NumericKey, number>),
  ttftRise: null,
  itlRise: null,
  failOnDivergence: false,
};

/** The flags' names, for the command's option table. */
export const TOLERANCE_FLAGS = [...TOLERANCE_ROWS.map((r) => r.flag), 'fail-on-divergence'] as const;

/** The tolerances of the flags, defaults for the rest, or every bad flag named. */
export function tolerancesFromFlags(
  values: Record<string, string | boolean | string[] | undefined>,
): { ok: true; tolerances: Tolerances } | { ok: false; errors: string[] } {
  const out: Tolerances = { ...DEFAULT_TOLERANCES, failOnDivergence: values['fail-on-divergence'] === true };
  const errors: string[] = [];
  for (const row of TOLERANCE_ROWS) {
    const raw = values[row.flag];
    if (raw === undefined) continue;
    const text = String(raw).trim();
    const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= 0 && n <= row.max)) errors.push(`--${row.flag}: a number from 0 to ${row.max}, got "${text.slice(0, 40)}"`);
    else out[row.key] = n;
  }
  return errors.length ? { ok: false, errors } : { ok: true, tolerances: out };
}
