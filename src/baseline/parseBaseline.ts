import { SAMPLE_VERDICTS } from '../probe/probeTypes.js';
import { BASELINE_FORMAT, BASELINE_FORMAT_VERSION, type Baseline } from './baselineFormat.js';

export type ParsedBaseline = { ok: true; baseline: Baseline } | { ok: false; error: string; kind: 'corrupt' | 'version' };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const numOrNull = (v: unknown) => v === null || isNum(v);
const strOrNull = (v: unknown) => v === null || typeof v === 'string';

/** The first path in a pair whose value is not of the format's shape, or null. */
function pairProblem(p: unknown, at: string): string | null {
  if (!isObject(p)) return `${at}: not an object`;
  if (typeof p['target'] !== 'string' || typeof p['probe'] !== 'string') return `${at}: target and probe must be names`;
  const s = p['settings'];
  if (!isObject(s)) return `${at}.settings: not an object`;
  for (const k of ['maxTokens', 'temperature', 'samples', 'minTokens']) if (!isNum(s[k])) return `${at}.settings.${k}: not a number`;
  for (const k of ['kind', 'messages', 'extraBody', 'thresholds', 'kindSettings'])
    if (typeof s[k] !== 'string') return `${at}.settings.${k}: not a string`;
  if (!strOrNull(s['temperatures'])) return `${at}.settings.temperatures: not a string or null`;
  if (!numOrNull(s['seed'])) return `${at}.settings.seed: not a number or null`;
  const v = p['verdicts'];
  if (!Array.isArray(v) || !v.every((x) => (SAMPLE_VERDICTS as readonly unknown[]).includes(x)))
    return `${at}.verdicts: not a list of ${SAMPLE_VERDICTS.join(', ')}`;
  if (!numOrNull(p['onsetToken'])) return `${at}.onsetToken: not a number or null`;
  if (!numOrNull(p['recall'])) return `${at}.recall: not a number or null`;
  const c = p['conformance'];
  if (c !== null && !(isObject(c) && Object.values(c).every((x) => typeof x === 'string')))
    return `${at}.conformance: not an object of check statuses or null`;
  const l = p['latency'];
  if (!isObject(l) || !['ttftSeconds', 'itlSeconds', 'tokensPerSecond'].every((k) => numOrNull(l[k])))
    return `${at}.latency: needs ttftSeconds, itlSeconds and tokensPerSecond (numbers or null)`;
  const o = p['outputs'];
  if (!Array.isArray(o)) return `${at}.outputs: not a list`;
  for (const [i, x] of o.entries()) {
    if (!isObject(x) || !isNum(x['sample']) || !isNum(x['totalTokens']) || typeof x['truncated'] !== 'boolean')
      return `${at}.outputs[${i}]: needs sample, totalTokens and truncated`;
    if (!Array.isArray(x['tokens']) || !x['tokens'].every((t) => typeof t === 'string'))
      return `${at}.outputs[${i}].tokens: not a list of strings`;
  }
  const self = p['selfDeparture'];
  if (
    self !== undefined &&
    !(isObject(self) && Number.isInteger(self['repeats']) && (self['repeats'] as number) >= 2 && numOrNull(self['tokenIndex']))
  )
    return `${at}.selfDeparture: needs repeats (2 or more) and tokenIndex (a number or null)`;
  return null;
}

/**
 * A baseline file's text, checked whole: JSON, this format, this format version, every field
 * of the shape the comparison reads. Errors name the first thing wrong, with its path.
 */
export function parseBaseline(text: string): ParsedBaseline {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, kind: 'corrupt', error: `not JSON (${(err as Error).message}); a file cut short or edited?` };
  }
  if (!isObject(doc) || doc['format'] !== BASELINE_FORMAT)
    return { ok: false, kind: 'corrupt', error: `not a baseline of coherency-exporter (no "format": "${BASELINE_FORMAT}")` };
  const tool = doc['tool'];
  const made = isObject(tool) && typeof tool['version'] === 'string' ? tool['version'] : 'an unknown version';
  if (doc['formatVersion'] !== BASELINE_FORMAT_VERSION)
    return {
      ok: false,
      kind: 'version',
      error: `baseline format version ${JSON.stringify(doc['formatVersion'])} (made by coherency-exporter ${made}); this version reads format ${BASELINE_FORMAT_VERSION}: save a new baseline with this version`,
    };
  if (!isObject(tool) || typeof tool['version'] !== 'string') return { ok: false, kind: 'corrupt', error: 'tool.version: missing' };
  if (typeof doc['createdAt'] !== 'string') return { ok: false, kind: 'corrupt', error: 'createdAt: missing' };
  const f = doc['fingerprints'];
  if (!isObject(f) || !Object.values(f).every((x) => isObject(x) && Object.values(x).every(strOrNull)))
    return { ok: false, kind: 'corrupt', error: 'fingerprints: not an object of fingerprints (fields of strings or null) by target' };
  const pairs = doc['pairs'];
  if (!Array.isArray(pairs) || pairs.length === 0)
    return { ok: false, kind: 'corrupt', error: 'pairs: not a list of target × probe figures' };
  for (const [i, p] of pairs.entries()) {
    const problem = pairProblem(p, `pairs[${i}]`);
    if (problem) return { ok: false, kind: 'corrupt', error: problem };
  }
  return { ok: true, baseline: doc as unknown as Baseline };
}
