import type { AnalysisScore } from '../core/analysisTypes.js';
import type { RunResult, SampleFinding, SampleResult } from '../probe/probeTypes.js';

/**
 * What a run read back from storage.dir must look like before the pages and listings touch it.
 * A stored file may be of an older version, edited by hand or damaged: a run that lacks what
 * names and lists it is skipped; one that has that but a field of the wrong type (`reasons` a
 * string) is repaired here to the types the renderers expect, so its page renders.
 */

/** Enough shape to list and show a run; anything else in the directory is skipped. */
export function looksLikeRun(run: unknown): run is RunResult {
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

const NUMBERS_OR_NULL = ['ttftSeconds', 'ttfcSeconds', 'tokensPerSecond', 'tokensAtAbort', 'onsetToken'] as const;
const NUMBERS = ['outputTokens', 'durationSeconds', 'contentChars', 'reasoningChars', 'chunks', 'maxGapSeconds', 'tokensSaved'] as const;

const finiteOr = <T>(v: unknown, fallback: T): number | T => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : v === undefined || v === null ? [] : [text(v)]);

/** A rule name as detectors write them ("codeChunkShare", "fenced.listItems"): anything else in a stored file is dropped. */
function isRuleName(v: unknown): v is string {
  return typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_.]{0,63}$/.test(v);
}

/** A finding of any stored version: 0.1 stored kinds as strings, a damaged one may lack fields. */
function repairFinding(f: unknown, verdict: string): SampleFinding {
  const o = (typeof f === 'object' && f !== null ? f : { kind: f }) as Partial<Record<keyof SampleFinding, unknown>>;
  return {
    kind: text(o.kind) as SampleFinding['kind'],
    severity: o.severity === 'warn' || o.severity === 'fail' ? o.severity : verdict === 'fail' ? 'fail' : 'warn',
    certain: o.certain === true,
    atChar: finiteOr(o.atChar, -1),
    atToken: finiteOr(o.atToken, -1),
    detail: text(o.detail),
    excerpt: text(o.excerpt),
    channel: o.channel === 'content' || o.channel === 'reasoning' ? o.channel : 'sample',
    ...(isRuleName(o.rule) ? { rule: o.rule } : {}),
  };
}

function repairSample(s: SampleResult, i: number): void {
  const o = s as unknown as Record<string, unknown>;
  o['index'] = finiteOr(o['index'], i);
  o['reasons'] = texts(o['reasons']);
  o['notes'] = texts(o['notes']);
  o['findings'] = (Array.isArray(o['findings']) ? o['findings'] : []).map((f) => repairFinding(f, s.verdict));
  for (const k of NUMBERS_OR_NULL) o[k] = finiteOr(o[k], null);
  for (const k of NUMBERS) o[k] = finiteOr(o[k], 0);
  o['aborted'] = o['aborted'] === true;
  o['finishReason'] = typeof o['finishReason'] === 'string' ? o['finishReason'] : null;
  const m = o['metrics'] as Record<string, unknown> | null | undefined;
  if (typeof m !== 'object' || m === null || typeof m['content'] !== 'object' || m['content'] === null) o['metrics'] = null;
  const e = o['error'] as Record<string, unknown> | null | undefined;
  o['error'] =
    typeof e === 'object' && e !== null
      ? { type: text(e['type']), message: text(e['message']) }
      : e === undefined || e === null
        ? null
        : { type: '', message: text(e) };
  if (typeof o['content'] !== 'string') o['content'] = '';
  if (typeof o['reasoning'] !== 'string') o['reasoning'] = '';
  o['score'] = repairScores(o['score']);
  repairOutcome(o);
}

/** The fields each kind's outcome had of its own in runs stored before `outcome`, named after their kind. */
const OLD_OUTCOME_FIELDS = ['recall', 'contamination', 'conformance'] as const;

/**
 * The sample's `outcome`: as stored, or, in a run stored by an earlier build, made of the old
 * field of its kind (`recall: {...}` becomes `outcome: { kind: 'recall', ... }`), so that the pages,
 * the JSON and the figures read one shape. One that is not a record naming its kind is dropped.
 */
function repairOutcome(o: Record<string, unknown>): void {
  for (const kind of OLD_OUTCOME_FIELDS) {
    const old = o[kind];
    if (old === undefined) continue;
    delete o[kind];
    if (o['outcome'] === undefined && typeof old === 'object' && old !== null && !Array.isArray(old)) o['outcome'] = { ...old, kind };
  }
  const outcome = o['outcome'] as Record<string, unknown> | null | undefined;
  if (outcome === undefined) return;
  if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome) || typeof outcome['kind'] !== 'string') delete o['outcome'];
}

/** A stored score as the run page reads it, or null (older runs have none; a damaged one is dropped). */
function repairScore(v: unknown): AnalysisScore | null {
  const o = v as Partial<Record<keyof AnalysisScore, unknown>> | null;
  if (typeof o !== 'object' || o === null) return null;
  const n = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  if (!n(o.probability) || !n(o.threshold) || !n(o.warnFrom) || !Array.isArray(o.contributions)) return null;
  const contributions = (o.contributions as unknown[])
    .filter((c): c is [string, number] => Array.isArray(c) && typeof c[0] === 'string' && n(c[1]))
    .slice(0, 5)
    .map(([name, c]): [string, number] => [name.slice(0, 120), c]);
  return {
    mode: o.mode === 'learned' ? 'learned' : 'rules',
    probability: o.probability as number,
    threshold: o.threshold as number,
    warnFrom: o.warnFrom as number,
    contributions,
  };
}

function repairScores(v: unknown): SampleResult['score'] {
  const o = v as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) return null;
  const content = repairScore(o['content']);
  const reasoning = repairScore(o['reasoning']);
  return content || reasoning ? { content, reasoning } : null;
}

/** The run with every field the pages, listings and metrics read of the types they expect. */
export function repairRun(run: RunResult): RunResult {
  const o = run as unknown as Record<string, unknown>;
  o['trigger'] = o['trigger'] === 'manual' ? 'manual' : 'schedule';
  o['durationSeconds'] = finiteOr(o['durationSeconds'], 0);
  run.samples.forEach(repairSample);
  repairFingerprint(o);
  return run;
}

/**
 * A stored fingerprint (runs since 0.1 fingerprints; older runs have none) with the types the run
 * page reads; one that is not a record with a hash is dropped, the run stands without it.
 */
function repairFingerprint(o: Record<string, unknown>): void {
  const f = o['fingerprint'];
  if (f === undefined) return;
  const fp = f as Record<string, unknown> | null;
  if (typeof fp !== 'object' || fp === null || typeof fp['hash'] !== 'string') {
    delete o['fingerprint'];
    return;
  }
  for (const k of ['server', 'version', 'model', 'modelRevision', 'systemFingerprint', 'ownedBy'] as const)
    fp[k] = typeof fp[k] === 'string' ? fp[k] : null;
  for (const k of ['maxModelLen', 'created'] as const) fp[k] = finiteOr(fp[k], null);
  for (const k of ['settings', 'headers'] as const) {
    const r = fp[k];
    fp[k] =
      typeof r === 'object' && r !== null && !Array.isArray(r)
        ? Object.fromEntries(Object.entries(r as Record<string, unknown>).map(([name, v]) => [name, text(v)]))
        : {};
  }
  for (const k of ['sources', 'unavailable'] as const) fp[k] = texts(fp[k]);
}
