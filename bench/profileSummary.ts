import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { originalSource } from './sourceMaps.js';

/**
 * Where a daemon's CPU went, from a V8 CPU profile (`node --cpu-prof`): each sample is charged to
 * the innermost part of the program on its stack, walking up from the running function, so the
 * zlib work the analyzer asks for counts as analysis, and the analyzer called from a stream read
 * counts as analysis too, not as reading.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ANALYSIS = 'live analysis (src/core)';
const ANALYSIS_GZIP = 'live analysis: its gzip figures (node:zlib called from src/core)';

/** Parts of the program, matched on each frame's script URL. */
const PARTS: readonly [string, (url: string) => boolean][] = [
  // the SSE accumulator lives in src/core (pure) but is stream parsing, not analysis
  [
    'stream reading (src/client, undici, SSE parsing)',
    (u) =>
      u.includes('/dist/src/client/') ||
      u.includes('/core/streamAccumulator.') ||
      u.includes('/undici/') ||
      u.includes('/eventsource-parser/'),
  ],
  [ANALYSIS, (u) => u.includes('/dist/src/core/')],
  [
    'scheduling and probe bookkeeping (node-cron, src/probe, src/scheduler, src/state)',
    (u) => /\/dist\/src\/(probe|scheduler|state)\//.test(u) || u.includes('/node-cron/'),
  ],
  [
    'HTTP server and /metrics (fastify, prom-client, src/http, src/metrics)',
    (u) => /\/dist\/src\/(http|metrics)\//.test(u) || /\/(fastify|prom-client|find-my-way|light-my-request)\//.test(u),
  ],
  ['logging (pino)', (u) => u.includes('/pino')],
];
const SPECIAL = new Map([
  ['(garbage collector)', 'garbage collection'],
  ['(idle)', 'idle'],
  ['(program)', 'V8 and node internals (program)'],
]);

export interface ProfileShares {
  /** Busy milliseconds (everything but idle). */
  busyMs: number;
  /** [part, share of busy time 0-1], largest first. */
  parts: [string, number][];
  /** The busiest functions by self time: [name, share of busy time]. */
  top: [string, number][];
}

/**
 * A frame's script as a path of the module build: a frame of the bundled command line
 * (dist/cli) is mapped through the bundle's source map to the source file it came from
 * ("../../src/core/engine.ts" is read as ".../dist/src/core/engine.js"), so both builds are
 * attributed alike.
 */
function sourceUrl(frame: ProfileNode['callFrame']): string {
  const original = originalSource(frame.url, frame.lineNumber ?? 0, frame.columnNumber ?? 0);
  if (!original) return frame.url;
  const at = original.lastIndexOf('src/');
  return at < 0 ? frame.url : `/dist/${original.slice(at).replace(/\.ts$/, '.js')}`;
}

export function profileShares(profile: CpuProfile, topN = 8): ProfileShares {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = partOf.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const { functionName } = node.callFrame;
    const url = sourceUrl(node.callFrame);
    // the innermost frame that belongs to a named part; frames of none (zlib, JSON) take their caller's
    const up = parent.get(id);
    let part = SPECIAL.get(functionName) ?? PARTS.find(([, match]) => match(url))?.[0] ?? (up === undefined ? 'other' : classify(up));
    // the analyzer's gzip figures, shown apart: the cost the snapshot every 128 chars was made of
    if (
      (part === ANALYSIS || part === ANALYSIS_GZIP) &&
      (url === 'node:zlib' || url.startsWith('node:internal/zlib') || functionName === 'zlibBufferSync')
    )
      part = ANALYSIS_GZIP;
    partOf.set(id, part);
    return part;
  };
  const partMs = new Map<string, number>();
  const selfMs = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const part = classify(id);
    partMs.set(part, (partMs.get(part) ?? 0) + ms);
    const { functionName, url } = byId.get(id)!.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(dist|node_modules)\//, '')}`.trim();
    if (part !== 'idle') selfMs.set(name, (selfMs.get(name) ?? 0) + ms);
  }
  const busyMs = [...partMs].filter(([p]) => p !== 'idle').reduce((a, [, v]) => a + v, 0);
  const share = (m: Map<string, number>, n: number): [string, number][] =>
    [...m]
      .filter(([p]) => p !== 'idle')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => [k, busyMs > 0 ? v / busyMs : 0]);
  return { busyMs, parts: share(partMs, PARTS.length + 4), top: share(selfMs, topN) };
}

/** Reads the one .cpuprofile a run left in dir. */
export function readProfile(dir: string): CpuProfile {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${dir}, found ${files.length}`);
  return JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as CpuProfile;
}

export function printShares(label: string, s: ProfileShares): void {
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)}%`;
  console.log(`${label}: ${(s.busyMs / 1000).toFixed(1)} s busy`);
  for (const [part, x] of s.parts) console.log(`  ${pct(x)}  ${part}`);
  console.log('  busiest functions (self time):');
  for (const [name, x] of s.top) console.log(`    ${pct(x)}  ${name}`);
}
