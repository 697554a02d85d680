import { CONFIG_SPEC, type FieldSpec } from './configSpec.js';
import { DEFAULTS } from './defaults.js';
import {
  CONFORMANCE_CHECKS,
  PROBE_KINDS_NAMES,
  RECALL_POSITIONS,
  type ConformanceCheckName,
  type ConformanceSettings,
  type ContaminationSettings,
  type ProbeKind,
  type RecallPosition,
  type RecallSettings,
} from './probeKindTypes.js';

/** Probe keys that belong to one kind only; validateConfig lists them in CONFIG_KEYS.probe. */
export const PROBE_KIND_KEYS = {
  recall: ['conversationTokens', 'facts', 'positions', 'seed', 'minRecall'],
  contamination: ['concurrency', 'seed'],
  conformance: ['checks'],
} as const;

/** Every key the kinds add to a probe (kind itself included). */
export const PROBE_KIND_CONFIG_KEYS: readonly string[] = [
  'kind',
  'conversationTokens',
  'facts',
  'positions',
  'seed',
  'minRecall',
  'concurrency',
  'checks',
];

export interface ProbeKindSettings {
  /** Absent for generation probes. */
  kind?: ProbeKind;
  recall?: RecallSettings;
  contamination?: ContaminationSettings;
  conformance?: ConformanceSettings;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * The kind of a probe and its settings, with every problem reported through `add(path, message)`.
 * Keys of another kind are refused (a `facts` on a generation probe would be silently ignored).
 */
export function validateProbeKind(
  raw: Record<string, unknown>,
  path: string,
  add: (path: string, message: string) => void,
): ProbeKindSettings {
  const at = (key: string) => `${path}.${key}`;
  const given = (key: string) => raw[key] !== undefined && raw[key] !== null;
  let kind: ProbeKind = 'generation';
  if (given('kind')) {
    const k = raw['kind'];
    if (typeof k === 'string' && (PROBE_KINDS_NAMES as readonly string[]).includes(k)) kind = k as ProbeKind;
    else add(at('kind'), `must be one of ${PROBE_KINDS_NAMES.join(', ')}`);
  }
  const own: readonly string[] = kind === 'generation' ? [] : PROBE_KIND_KEYS[kind];
  // keys of every probe that a kind has no use for (a conformance probe sends its own requests, once per run)
  for (const [key, f] of Object.entries(CONFIG_SPEC.probe.fields) as [string, FieldSpec][]) {
    if (f.notWhen?.key === 'kind' && f.notWhen.values.includes(kind) && given(key))
      add(at(key), `does not apply to a ${kind} probe (it sends its own fixed requests, once per run): leave it out`);
  }
  for (const key of PROBE_KIND_CONFIG_KEYS) {
    if (key === 'kind' || !given(key) || own.includes(key)) continue;
    const owners = Object.entries(PROBE_KIND_KEYS)
      .filter(([, keys]) => (keys as readonly string[]).includes(key))
      .map(([k]) => k);
    add(at(key), `applies to kind ${owners.join(' or ')} only (this probe is kind ${kind})`);
  }
  const int = (key: string, fallback: number, min: number, max: number): number => {
    if (!given(key)) return fallback;
    const v = raw[key];
    if (isInt(v) && v >= min && v <= max) return v;
    add(at(key), `must be an integer from ${min} to ${max}`);
    return fallback;
  };
  const lim = DEFAULTS.probeKinds.limits;
  if (kind === 'recall') {
    const d = DEFAULTS.probeKinds.recall;
    const conversationTokens = int('conversationTokens', d.conversationTokens, lim.conversationTokensMin, lim.conversationTokensMax);
    const facts = int('facts', d.facts, 1, lim.factsMax);
    const positions = readPositions(raw['positions'], at('positions'), add) ?? [...d.positions];
    const seed = int('seed', d.seed, 0, 2 ** 32 - 1);
    let minRecall: number = d.minRecall;
    if (given('minRecall')) {
      const v = raw['minRecall'];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1) minRecall = v;
      else add(at('minRecall'), 'must be a number from 0 to 1 (the share of facts recalled under which a sample fails)');
    }
    return {
      kind,
      recall: { conversationTokens, facts, positions, seed, minRecall },
    };
  }
  if (kind === 'contamination') {
    const d = DEFAULTS.probeKinds.contamination;
    return {
      kind,
      contamination: {
        concurrency: int('concurrency', d.concurrency, lim.concurrencyMin, lim.concurrencyMax),
        seed: int('seed', d.seed, 0, 2 ** 32 - 1),
      },
    };
  }
  if (kind === 'conformance') {
    return { kind, conformance: { checks: readChecks(raw['checks'], at('checks'), add) ?? [...DEFAULTS.probeKinds.conformance.checks] } };
  }
  // a generation probe keeps the shape it always had: no kind field (runProbe reads absent as generation)
  return {};
}

/** The checks asked for, in CONFORMANCE_CHECKS order (the order they run and are shown). */
function readChecks(v: unknown, path: string, add: (path: string, message: string) => void): ConformanceCheckName[] | null {
  if (v === undefined || v === null) return null;
  const known: readonly string[] = CONFORMANCE_CHECKS;
  const message = `must be a non-empty list of ${CONFORMANCE_CHECKS.join(', ')} (each at most once)`;
  if (!Array.isArray(v) || v.length === 0 || new Set(v).size !== v.length) {
    add(path, message);
    return null;
  }
  const unknown = v.filter((c) => typeof c !== 'string' || !known.includes(c));
  if (unknown.length > 0) {
    add(path, `${message}; unknown: ${unknown.map((c) => JSON.stringify(c)?.slice(0, 40) ?? String(c)).join(', ')}`);
    return null;
  }
  return CONFORMANCE_CHECKS.filter((c) => v.includes(c));
}

function readPositions(v: unknown, path: string, add: (path: string, message: string) => void): RecallPosition[] | null {
  if (v === undefined || v === null) return null;
  const message = `must be a non-empty list of ${RECALL_POSITIONS.join(', ')} (each at most once)`;
  if (!Array.isArray(v) || v.length === 0) {
    add(path, message);
    return null;
  }
  const out: RecallPosition[] = [];
  for (const item of v) {
    if (typeof item !== 'string' || !(RECALL_POSITIONS as readonly string[]).includes(item) || out.includes(item as RecallPosition)) {
      add(path, message);
      return null;
    }
    out.push(item as RecallPosition);
  }
  return out;
}
