import { createHealthyText } from '../prose/healthyText.js';
import { healthySource } from './scenarios/healthy.js';
import { tokenize } from '../prose/tokenize.js';
import { concatSources, cycleSource, lockedIn, takeSource, type TokenSource } from './tokenSource.js';

/**
 * Another build of the same model, chosen by a path prefix so one simulator serves the old
 * build and the new side by side: `http://HOST:PORT/build/drift@300/v1` answers every request
 * as `/v1` does for its first 300 tokens, then departs. What a deploy gate must tell apart:
 * changed numerics that still read well (drift), and a build that collapses (degraded).
 * Separate from the defect switches (defects.ts), which break the API rather than the text;
 * a `/defect/...` part may follow (`/build/degraded@300/defect/buffered/v1`).
 */
export interface BuildDefinition {
  name: string;
  description: string;
  /** What the text turns into from token N (the request's seed picks the words; `nth`, the simulator's count of requests, for a build that is not repeatable). */
  after(seed: number, nth: number): TokenSource;
}

const DRIFT_SALT = 0x27d4eb2f;
const LOOP_SALT = 0x165667b1;
const JITTER_SALT = 0x61c88647;

export const BUILDS: readonly BuildDefinition[] = [
  {
    name: 'drift',
    description: 'the same output up to token N, then other healthy prose (changed numerics that read well)',
    after: (seed) => healthySource((seed ^ DRIFT_SALT) >>> 0),
  },
  {
    name: 'degraded',
    description: 'the same output up to token N, then one sentence repeated (a build that collapses)',
    after: (seed) => lockedIn(cycleSource(tokenize(` ${createHealthyText((seed ^ LOOP_SALT) >>> 0).sentence()}`))),
  },
  {
    name: 'jitter',
    description:
      'the same output up to token N, then other healthy prose on every request (an unchanged server whose outputs at temperature 0 part late)',
    after: (seed, nth) => healthySource((seed ^ JITTER_SALT ^ Math.imul(nth + 1, 0x9e3779b1)) >>> 0),
  },
];

export interface Build {
  definition: BuildDefinition;
  /** The token where the output departs. */
  at: number;
}

export type BuildPath = { ok: true; build: Build | null; path: string } | { ok: false; message: string };

/** Splits `/build/NAME@N/...` into the build and the route after it; a path without the prefix has none. */
export function splitBuildPath(path: string): BuildPath {
  const match = /^\/build\/([^/]*)(\/.*)?$/.exec(path);
  if (!match) return { ok: true, build: null, path };
  const [name, at] = (match[1] ?? '').split('@');
  const definition = BUILDS.find((b) => b.name === name);
  if (!definition || at === undefined || !/^\d{1,9}$/.test(at))
    return {
      ok: false,
      message: `Unknown build \`${match[1]}\` in the path: use /build/NAME@N/ with NAME one of ${BUILDS.map((b) => b.name).join(', ')} and N the token where it departs.`,
    };
  return { ok: true, build: { definition, at: Number(at) }, path: match[2] ?? '/' };
}

/** The tokens of `source` up to the build's departure, then what the build writes instead; a text that ends sooner ends as before. */
export function buildSource(build: Build, source: TokenSource, seed: number, nth = 0): TokenSource {
  let sent = 0;
  let ended = false;
  const counted: TokenSource = {
    next() {
      const t = source.next();
      if (t === null) ended = true;
      else sent++;
      return t;
    },
  };
  const tail = build.definition.after(seed, nth);
  return concatSources(takeSource(counted, build.at), { next: () => (ended || sent < build.at ? null : tail.next()) });
}
