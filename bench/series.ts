import { createServer } from 'node:net';
import { pino } from 'pino';
import { parseConfig } from '../src/config/parseConfig.js';
import type { MetricsDetail } from '../src/config/types.js';
import { startDaemon } from '../src/daemon.js';

/**
 * What one target x probe costs Prometheus: a live daemon with its built-in simulator runs one
 * probe on a plain model and on a reasoning model (one ok sample each, by POST /probe), and the
 * series of its /metrics are counted per target x probe, for each metrics.detail. The probe has
 * a (monthly) schedule, so the scheduler's gauges are there as they are in production.
 */

export interface SeriesCount {
  detail: MetricsDetail;
  /** Series with target="plain" (model "healthy": no reasoning). */
  plain: number;
  /** Series with target="thinking" (model "reasoning": reasoning_content first, then the answer). */
  reasoning: number;
  /** Series of the exporter and the process that belong to no target (build info, process_*, nodejs_*). */
  shared: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Series lines (not comments) of a text exposition that carry target="name". */
export function seriesOfTarget(exposition: string, target: string): number {
  return exposition.split('\n').filter((l) => l !== '' && !l.startsWith('#') && l.includes(`target="${target}"`)).length;
}

export async function countSeries(detail: MetricsDetail, maxTokens = 600): Promise<SeriesCount> {
  const simPort = await freePort();
  const parsed = parseConfig(
    `server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
simulator: { enabled: true, host: 127.0.0.1, port: ${simPort}, tokensPerSecond: 0 }
metrics: { detail: ${detail} }
targets:
  - { name: plain, baseUrl: "http://127.0.0.1:${simPort}/v1", model: healthy }
  - { name: thinking, baseUrl: "http://127.0.0.1:${simPort}/v1", model: reasoning }
probes:
  - { name: article, schedule: "0 0 1 * *", prompt: "Write a long technical article.", maxTokens: ${maxTokens}, minTokens: 100 }`,
    { env: {} },
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const daemon = await startDaemon({ config: parsed.config, configPath: null, logger: pino({ level: 'silent' }), env: {} });
  try {
    for (const target of ['plain', 'thinking']) {
      const res = await fetch(`${daemon.url}/probe?target=${target}&probe=article`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const run = (await res.json()) as { verdict?: string };
      if (res.status !== 200 || run.verdict !== 'ok')
        throw new Error(`${target}: HTTP ${res.status}, ${JSON.stringify(run).slice(0, 300)}`);
    }
    const exposition = await (await fetch(`${daemon.url}/metrics`)).text();
    const all = exposition.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
    const plain = seriesOfTarget(exposition, 'plain');
    const reasoning = seriesOfTarget(exposition, 'thinking');
    return { detail, plain, reasoning, shared: all - plain - reasoning };
  } finally {
    await daemon.close();
  }
}

export async function runSeriesBench(): Promise<void> {
  console.log('series per target x probe after an ok run (live daemon, built-in simulator):');
  console.log('detail  plain  reasoning  100 pairs (plain..reasoning)  shared');
  for (const detail of ['basic', 'full'] as const) {
    const c = await countSeries(detail);
    const hundred = `${(c.plain * 100).toLocaleString('en-US')}..${(c.reasoning * 100).toLocaleString('en-US')}`;
    console.log(
      `${detail.padEnd(6)}  ${String(c.plain).padStart(5)}  ${String(c.reasoning).padStart(9)}  ${hundred.padStart(28)}  ${String(c.shared).padStart(6)}`,
    );
  }
}
