/**
 * Validation of a probe's signal keys: expect (prompt adherence), temperatures (a sweep) and
 * logprobs. Kept apart from validateConfig so that the probe validation only calls it.
 */
import type { ExpectConfig } from '../core/promptAdherence.js';

export type AddProblem = (path: string, message: string) => void;

/** Keys of probes[].expect. */
export const EXPECT_KEYS = ['keywords', 'minCoverage', 'headings'] as const;
export const EXPECT_DEFAULTS = { minCoverage: 0.6, headings: 0 } as const;
/** At most this many temperatures in one sweep (each one is a label value). */
export const TEMPERATURES_MAX = 8;
export const KEYWORDS_MAX = 100;

export interface ProbeSignals {
  expect: ExpectConfig | null;
  temperatures: number[] | null;
  logprobs: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

export function validateProbeSignals(
  raw: Record<string, unknown>,
  path: string,
  limits: { temperatureMin: number; temperatureMax: number; samplesMax: number },
  samples: number,
  add: AddProblem,
): ProbeSignals {
  // a sweep replaces the one temperature: both set would leave one of them silently unused
  if (present(raw['temperatures']) && present(raw['temperature']))
    add(`${path}.temperature`, 'set temperature or temperatures (a sweep), not both');
  return {
    expect: readExpect(raw['expect'], `${path}.expect`, add),
    temperatures: readTemperatures(raw['temperatures'], `${path}.temperatures`, limits, samples, add),
    logprobs: readLogprobs(raw['logprobs'], `${path}.logprobs`, add),
  };
}

function readExpect(v: unknown, path: string, add: AddProblem): ExpectConfig | null {
  if (!present(v)) return null;
  if (!isObj(v)) {
    add(path, 'must be a mapping with keywords (a list), minCoverage (0-1) and headings (an integer)');
    return null;
  }
  for (const key of Object.keys(v)) {
    if (!(EXPECT_KEYS as readonly string[]).includes(key)) add(`${path}.${key}`, `unknown key (known: ${EXPECT_KEYS.join(', ')})`);
  }
  const keywords: string[] = [];
  const kw = v['keywords'];
  if (present(kw)) {
    if (!Array.isArray(kw) || kw.length > KEYWORDS_MAX)
      add(`${path}.keywords`, `must be a list of up to ${KEYWORDS_MAX} words or short phrases`);
    else {
      kw.forEach((k, i) => {
        if (typeof k !== 'string' || !/[\p{L}\p{N}]/u.test(k))
          add(`${path}.keywords[${i}]`, 'must be a word or phrase (letters or digits)');
        else keywords.push(k.trim());
      });
    }
  }
  let minCoverage: number = EXPECT_DEFAULTS.minCoverage;
  const mc = v['minCoverage'];
  if (present(mc)) {
    if (typeof mc !== 'number' || !(mc >= 0 && mc <= 1))
      add(`${path}.minCoverage`, 'must be a number from 0 to 1 (the share of keywords the answer must mention)');
    else minCoverage = mc;
  }
  let headings: number = EXPECT_DEFAULTS.headings;
  const h = v['headings'];
  if (present(h)) {
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 0 || h > 1000)
      add(`${path}.headings`, 'must be an integer from 0 to 1000 (markdown headings the answer must have)');
    else headings = h;
  }
  if (keywords.length === 0 && headings === 0 && !present(kw)) add(path, 'sets nothing to check: give keywords, headings or both');
  return { keywords, minCoverage, headings };
}

function readTemperatures(
  v: unknown,
  path: string,
  lim: { temperatureMin: number; temperatureMax: number; samplesMax: number },
  samples: number,
  add: AddProblem,
): number[] | null {
  if (!present(v)) return null;
  const message = `must be a list of 1 to ${TEMPERATURES_MAX} distinct numbers from ${lim.temperatureMin} to ${lim.temperatureMax}`;
  if (!Array.isArray(v) || v.length === 0 || v.length > TEMPERATURES_MAX) {
    add(path, message);
    return null;
  }
  const out: number[] = [];
  v.forEach((t, i) => {
    if (typeof t !== 'number' || !(t >= lim.temperatureMin && t <= lim.temperatureMax))
      add(`${path}[${i}]`, `must be a number from ${lim.temperatureMin} to ${lim.temperatureMax}`);
    else if (out.includes(t)) add(`${path}[${i}]`, `${t} is listed twice`);
    else out.push(t);
  });
  if (out.length * samples > lim.samplesMax) {
    add(path, `${out.length} temperatures x samples ${samples} = ${out.length * samples} requests per run, more than ${lim.samplesMax}`);
  }
  return out.length === v.length ? out : null;
}

function readLogprobs(v: unknown, path: string, add: AddProblem): boolean {
  if (!present(v)) return false;
  if (typeof v !== 'boolean') {
    add(path, 'must be true or false');
    return false;
  }
  return v;
}
