import { DEFAULTS } from './defaults.js';
import {
  PROBE_KINDS_NAMES,
  RECALL_POSITIONS,
  type ContaminationSettings,
  type ProbeKind,
  type RecallPosition,
  type RecallSettings,
} from './probeKindTypes.js';

/** Probe keys that belong to one kind only; validateConfig lists them in CONFIG_KEYS.probe. */
export const PROBE_KIND_KEYS = {
  recall: ['conversationTokens', 'facts', 'positions', 'seed', 'minRecall'],
  contamination: ['concurrency', 'seed'],
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
];

export interface ProbeKindSettings {
  /** Absent for generation probes. */
  kind?: ProbeKind;
  recall?: RecallSettings;
  contamination?: ContaminationSettings;
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
  // a generation probe keeps the shape it always had: no kind field (runProbe reads absent as generation)
  return {};
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
