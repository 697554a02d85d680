import type { SampleVerdict } from '../probe/probeTypes.js';
import type { Baseline, PairFigures, SelfDeparture } from './baselineFormat.js';
import { UNCOMPARED_FIELDS } from './fingerprintFields.js';
import { firstDeparture, type OutputComparison } from './firstDeparture.js';
import { departureIsChange } from './selfDeparture.js';
import type { Tolerances } from './tolerances.js';

/** One figure of one target × probe, before and after, as the table and --json show it. */
export interface FigureRow {
  target: string;
  probe: string;
  figure: 'verdicts' | 'failed share' | 'collapse onset' | 'recall' | 'conformance' | 'TTFT' | 'inter-token latency' | 'tokens/s';
  before: string;
  after: string;
  change: string;
  /** Worse beyond its tolerance. */
  regressed: boolean;
  /** The figures as numbers (shares 0-1, seconds, tokens), for --json; null where the figure is not a number or is missing. */
  beforeValue: number | null;
  afterValue: number | null;
  /** Why it regressed, naming the tolerance ("failed share +50 points > --max-failed-rise 0"); null when it did not. */
  why: string | null;
}

export interface OutputRow {
  target: string;
  probe: string;
  comparison: OutputComparison;
  /** How far the baseline's build departed from itself when it was saved; null: not measured. */
  selfDeparture: SelfDeparture | null;
  /** It departs earlier than the build's own spread (or departs, without one): a change of the build. */
  changed: boolean;
}

/** A fingerprint field that differs (informational: never a regression by itself); null: not read on that side. */
export interface FingerprintChange {
  target: string;
  field: string;
  before: string | null;
  after: string | null;
}

export interface Comparison {
  /** Some figure is worse beyond its tolerance: the gate fails (exit 1). */
  regressed: boolean;
  /** A pair answered with more errors than in the baseline (nothing to judge there). */
  errorsRose: boolean;
  baselineCreatedAt: string;
  rows: FigureRow[];
  /** Outputs at temperature 0 compared token by token. */
  outputs: OutputRow[];
  /** Outputs the baseline kept that this run has none for (a sample that errored), by target/probe #N. */
  outputsMissing: string[];
  fingerprintChanges: FingerprintChange[];
}

/** Below this, two shares or latencies are the same (float noise of a division). */
const EPSILON = 1e-9;

const pct = (x: number) => `${Math.round(x * 100)}%`;
const signed = (x: number, unit: string) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x)}${unit}`;
const ms = (s: number | null) => (s === null ? '–' : s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(s < 0.01 ? 2 : 1)} ms`);

/** "2 ok, 1 fail": the verdicts of a pair's samples, counted. */
export function verdictCounts(verdicts: readonly SampleVerdict[]): string {
  const order: SampleVerdict[] = ['ok', 'warn', 'fail', 'error'];
  return order
    .map((v) => [v, verdicts.filter((x) => x === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
}

/** The share of answered samples that failed (or warned, with failOn warn); null when none answered. */
export function failedShare(verdicts: readonly SampleVerdict[], failOn: 'warn' | 'fail'): number | null {
  const answered = verdicts.filter((v) => v !== 'error');
  if (answered.length === 0) return null;
  return answered.filter((v) => v === 'fail' || (failOn === 'warn' && v === 'warn')).length / answered.length;
}

/** A relative change as a percentage, "+12%"; "" when either side is missing or the base is 0. */
function relative(before: number | null, after: number | null): string {
  if (before === null || after === null || before === 0) return '';
  return signed(Math.round(((after - before) / before) * 100), '%');
}

function pairRows(b: PairFigures, a: PairFigures, t: Tolerances, failOn: 'warn' | 'fail'): FigureRow[] {
  const rows: FigureRow[] = [];
  const row = (
    figure: FigureRow['figure'],
    [beforeValue, afterValue]: (number | null)[],
    before: string,
    after: string,
    change: string,
    why: string | null = null,
  ) =>
    rows.push({
      target: b.target,
      probe: b.probe,
      figure,
      before,
      after,
      change,
      beforeValue: beforeValue ?? null,
      afterValue: afterValue ?? null,
      regressed: why !== null,
      why,
    });
  row('verdicts', [], verdictCounts(b.verdicts), verdictCounts(a.verdicts), '');
  const [fb, fa] = [failedShare(b.verdicts, failOn), failedShare(a.verdicts, failOn)];
  const rise = fb !== null && fa !== null ? fa - fb : null;
  row(
    'failed share',
    [fb, fa],
    fb === null ? '–' : pct(fb),
    fa === null ? '–' : pct(fa),
    rise === null ? '' : signed(Math.round(rise * 100), ' pts'),
    rise !== null && rise > t.failedRise + EPSILON
      ? `failed share ${signed(Math.round(rise * 100), ' points')} > --max-failed-rise ${t.failedRise}`
      : null,
  );
  if (b.onsetToken !== null || a.onsetToken !== null) {
    const earlier = b.onsetToken !== null && a.onsetToken !== null ? (b.onsetToken - a.onsetToken) / b.onsetToken : null;
    row(
      'collapse onset',
      [b.onsetToken, a.onsetToken],
      b.onsetToken === null ? '–' : `token ${b.onsetToken}`,
      a.onsetToken === null ? '–' : `token ${a.onsetToken}`,
      b.onsetToken === null ? 'new' : a.onsetToken === null ? 'gone' : relative(b.onsetToken, a.onsetToken),
      earlier !== null && earlier > t.onsetDrop + EPSILON
        ? `collapse from token ${a.onsetToken}, ${Math.round(earlier * 100)}% earlier than ${b.onsetToken} > --max-onset-drop ${t.onsetDrop}`
        : null,
    );
  }
  if (b.recall !== null || a.recall !== null) {
    const drop = b.recall !== null && a.recall !== null ? b.recall - a.recall : null;
    row(
      'recall',
      [b.recall, a.recall],
      b.recall === null ? '–' : pct(b.recall),
      a.recall === null ? '–' : pct(a.recall),
      drop === null ? '' : signed(-Math.round(drop * 100), ' pts'),
      drop !== null && drop > t.recallDrop + EPSILON
        ? `recall ${signed(-Math.round(drop * 100), ' points')} > --max-recall-drop ${t.recallDrop}`
        : null,
    );
  }
  if (b.conformance !== null || a.conformance !== null) {
    const [cb, ca] = [b.conformance ?? {}, a.conformance ?? {}];
    const count = (c: Record<string, string>) => verdictLike(Object.values(c));
    const broke = Object.keys(ca).filter((k) => ca[k] === 'fail' && cb[k] !== 'fail');
    const fixed = Object.keys(cb).filter((k) => cb[k] === 'fail' && ca[k] !== 'fail');
    row(
      'conformance',
      [],
      count(cb),
      count(ca),
      [...broke.map((k) => `${k} fails`), ...fixed.map((k) => `${k} fixed`)].join(', '),
      broke.length ? `conformance check${broke.length > 1 ? 's' : ''} ${broke.join(', ')} failed, not in the baseline` : null,
    );
  }
  const latency = (figure: FigureRow['figure'], before: number | null, after: number | null, tol: number | null, flag: string) => {
    const up = before !== null && after !== null && before > 0 ? (after - before) / before : null;
    row(
      figure,
      [before, after],
      ms(before),
      ms(after),
      relative(before, after),
      tol !== null && up !== null && up > tol + EPSILON ? `${figure} ${relative(before, after)} > --${flag} ${tol}` : null,
    );
  };
  latency('TTFT', b.latency.ttftSeconds, a.latency.ttftSeconds, t.ttftRise, 'max-ttft-rise');
  latency('inter-token latency', b.latency.itlSeconds, a.latency.itlSeconds, t.itlRise, 'max-itl-rise');
  const tps = (x: number | null) => (x === null ? '–' : `${Math.round(x)}`);
  row(
    'tokens/s',
    [b.latency.tokensPerSecond, a.latency.tokensPerSecond],
    tps(b.latency.tokensPerSecond),
    tps(a.latency.tokensPerSecond),
    relative(b.latency.tokensPerSecond, a.latency.tokensPerSecond),
  );
  return rows;
}

/** "7 pass, 1 fail": statuses counted. */
function verdictLike(statuses: string[]): string {
  if (statuses.length === 0) return '–';
  return ['pass', 'fail', 'skipped']
    .map((s) => [s, statuses.filter((x) => x === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

/**
 * The current run against its baseline (both as baselineOf makes them; the pairs already
 * matched by baselineMismatch): a row per figure, the outputs at temperature 0 compared token
 * by token, and what the targets say of themselves that changed. Pure.
 */
export function compareBaselines(baseline: Baseline, current: Baseline, tolerances: Tolerances, failOn: 'warn' | 'fail'): Comparison {
  const rows: FigureRow[] = [];
  const outputs: OutputRow[] = [];
  const outputsMissing: string[] = [];
  let errorsRose = false;
  for (const b of baseline.pairs) {
    const a = current.pairs.find((p) => p.target === b.target && p.probe === b.probe);
    if (!a) continue;
    rows.push(...pairRows(b, a, tolerances, failOn));
    const errors = (p: PairFigures) => p.verdicts.filter((v) => v === 'error').length;
    if (errors(a) > errors(b)) errorsRose = true;
    for (const ob of b.outputs) {
      const oa = a.outputs.find((o) => o.sample === ob.sample);
      if (oa) {
        const comparison = firstDeparture(ob, oa);
        outputs.push({
          target: b.target,
          probe: b.probe,
          comparison,
          selfDeparture: b.selfDeparture ?? null,
          changed: departureIsChange(comparison, b.selfDeparture),
        });
      } else outputsMissing.push(`${b.target}/${b.probe} #${ob.sample}`);
    }
  }
  const fingerprintChanges: FingerprintChange[] = [];
  for (const [target, fb] of Object.entries(baseline.fingerprints)) {
    const fa = current.fingerprints[target];
    if (!fa) continue;
    // a field only one side has was not recorded by the other's build: nothing to compare
    for (const field of Object.keys(fb).filter((k) => Object.hasOwn(fa, k) && !UNCOMPARED_FIELDS.has(k))) {
      const [before, after] = [fb[field] ?? null, fa[field] ?? null];
      if (before !== after) fingerprintChanges.push({ target, field, before, after });
    }
  }
  // a departure within the build's own spread is no change, even with --fail-on-divergence
  const departed = outputs.some((o) => o.changed);
  return {
    regressed: rows.some((r) => r.regressed) || (tolerances.failOnDivergence && departed),
    errorsRose,
    baselineCreatedAt: baseline.createdAt,
    rows,
    outputs,
    outputsMissing,
    fingerprintChanges,
  };
}
