// Child process of `npm run bench -- history` (run with --expose-gc): ten probe runs of
// 20 samples x 40k tokens through the real ProbeService and RunHistory, then the RSS after gc.
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { parseConfig } from '../src/config/parseConfig.js';
import { createMetrics } from '../src/metrics/createMetrics.js';
import { ProbeService } from '../src/scheduler/probeService.js';
import { RunHistory } from '../src/state/runHistory.js';
import { accumulatedStream } from './accumulatedStream.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function settle(): NodeJS.MemoryUsage {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage();
}

const [historyMaxBytes, RUNS, SAMPLES, TOKENS] = process.argv.slice(2).map(Number) as [number, number, number, number];
const parsed = parseConfig(
  `targets: [{ name: bench, baseUrl: "http://127.0.0.1:9/v1", model: healthy }]
probes: [{ name: long, prompt: "Write a very long technical book.", samples: ${SAMPLES}, maxTokens: ${TOKENS}, schedule: "0 0 1 1 *" }]
storage: { historyMaxBytes: ${historyMaxBytes} }`,
  { env: {} },
);
if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
const config = parsed.config;
const logger = pino({ level: 'silent' });
const metrics = createMetrics(new Registry(), { version: 'bench', defaultMetrics: false });
const limits = { maxRuns: config.storage.historySize, maxBytes: config.storage.historyMaxBytes };
let n = 0;
// half of each sample is reasoning, as from a reasoning model
const REASONING_SHARE = 0.5;
let seed = 1;
const nextSeed = () => {
  seed += 1000;
  return seed;
};
const serviceWith = (history: RunHistory) =>
  new ProbeService({
    config,
    probe: { stream: accumulatedStream(TOKENS, nextSeed(), REASONING_SHARE), env: {}, now: Date.now, logger, newId: () => `run-${++n}` },
    metrics,
    history,
    logger,
  });

// The cold baseline includes nothing of the probe path; the warm one is taken after one run
// through a history that is then dropped (compiled code, allocator pools): what remains above
// it is what the kept runs cost.
const cold = settle();
await serviceWith(new RunHistory(limits)).run('bench', 'long', 'manual');
const history = new RunHistory(limits);
const service = serviceWith(history);

const base = settle();
let produced = 0;
const t0 = performance.now();
for (let i = 0; i < RUNS; i++) {
  const run = await service.run('bench', 'long', 'manual');
  for (const s of run.samples) produced += s.content.length + s.reasoning.length;
}
const seconds = (performance.now() - t0) / 1000;
const end = settle();
// What the history holds, read back through its own API (the text is ASCII: a byte a char).
let kept = 0;
const listed = history.list({ limit: 1000 });
for (const item of listed) {
  const run = await history.get(item.id);
  for (const s of run?.samples ?? []) kept += s.content.length + s.reasoning.length;
}
process.stdout.write(
  `${JSON.stringify({
    historyMaxBytes,
    runs: listed.length,
    producedBytes: produced,
    keptBytes: kept,
    rssBytes: end.rss - base.rss,
    rssColdBytes: end.rss - cold.rss,
    heapBytes: end.heapUsed - base.heapUsed,
    heapTotalBytes: end.heapTotal - base.heapTotal,
    externalBytes: end.external - base.external,
    seconds,
  })}\n`,
);
