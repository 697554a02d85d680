import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { createStreamAnalyzer } from '../src/core/streamAnalyzer.js';
import { StreamAccumulator } from '../src/core/streamAccumulator.js';
import { pino } from 'pino';
import { streamChat } from '../src/client/streamChat.js';
import type { ProbeConfig, TargetConfig } from '../src/config/types.js';
import type { ProbeDeps } from '../src/probe/probeDeps.js';
import { runProbe } from '../src/probe/runProbe.js';
import { parseConfig } from '../src/config/parseConfig.js';

/**
 * The daemon's whole stream path, as a scheduled probe runs it: undici + SSE parsing +
 * accumulation + live analysis with early-abort checks + the final verdict. The simulator
 * runs in a worker thread (its own core) and streams healthy prose as fast as the socket
 * takes it, so the figure is the cost on the daemon's side. Then: how many tokens after a
 * loop's onset the daemon closes the stream, per kind of loop.
 */

const TOKENS = 10_000;
const TARGET_TOKENS_PER_SECOND = 100_000;
const ABORT_BENCH_TOKENS_PER_SECOND = 5000;

// Runs in the worker: loads the compiled simulator (npm run bench builds first).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then(async ({ startSimulator }) => {
  const sim = await startSimulator({ tokensPerSecond: workerData.tokensPerSecond });
  parentPort.postMessage(sim.url);
  parentPort.on('message', async () => { await sim.close(); process.exit(0); });
});
`;

async function startSimulatorWorker(tokensPerSecond: number): Promise<{ url: string; close(): Promise<void> }> {
  const module = new URL('../src/simulator/index.js', import.meta.url).href;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, tokensPerSecond } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url,
    close: async () => {
      worker.postMessage('close');
      await new Promise((r) => worker.once('exit', r));
    },
  };
}

/** The bench's target and probe, through the real config parser (defaults and all). */
function benchConfig(baseUrl: string): { target: (model: string) => TargetConfig; probe: ProbeConfig } {
  const parsed = parseConfig(
    `targets: [{ name: bench, baseUrl: "${baseUrl}", model: healthy, timeouts: { totalSeconds: 300 } }]
probes: [{ name: long, prompt: "Write a long technical article.", maxTokens: ${TOKENS} }]`,
    { env: {} },
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const [target] = parsed.config.targets;
  const [probe] = parsed.config.probes;
  return { target: (model) => ({ ...target!, model }), probe: probe! };
}

/** A whole healthy 10k-token SSE body from the simulator, to replay into in-memory samples. */
async function fetchHealthySse(baseUrl: string, maxTokens: number): Promise<Buffer> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'healthy', stream: true, max_tokens: maxTokens, messages: [{ role: 'user', content: 'x' }] }),
  });
  return Buffer.from(await res.arrayBuffer());
}

/**
 * What one in-flight sample holds once it has received 10k tokens: the stream
 * accumulator plus the content analyzer, measured as the heap growth of 8 such samples.
 */
function reportSampleMemory(body: Buffer): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const held: unknown[] = [];
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 8; i++) {
    const acc = new StreamAccumulator();
    const analyzer = createStreamAnalyzer();
    for (let off = 0; off < body.length; off += 4096) {
      const d = acc.push(body.subarray(off, off + 4096), 0);
      if (d.contentDelta) analyzer.push(d.contentDelta);
    }
    analyzer.snapshot();
    held.push(acc, analyzer);
  }
  gc();
  const perSample = (process.memoryUsage().heapUsed - before) / 8;
  console.log(
    `  memory held per in-flight ${TOKENS}-token sample (accumulator + live analyzer, 8 samples, after gc): ${(perSample / 1048576).toFixed(2)} MiB`,
  );
  if (held.length === 0) console.log('unreachable');
}

export async function runProbePathBench(): Promise<void> {
  const sim = await startSimulatorWorker(0);
  const { target, probe } = benchConfig(sim.url);
  // Early abort is measured on a paced stream: unpaced, one network read carries hundreds
  // of tokens and the figure would measure the read size, not the detector.
  const paced = await startSimulatorWorker(ABORT_BENCH_TOKENS_PER_SECOND);
  const pacedTarget = benchConfig(paced.url).target;
  const deps: ProbeDeps = { stream: streamChat, env: {}, now: Date.now, logger: pino({ level: 'silent' }), newId: () => 'bench' };
  try {
    const rates: number[] = [];
    for (let i = 0; i < 13; i++) {
      const t0 = performance.now();
      const run = await runProbe(target('healthy'), { ...probe, extraBody: { seed: i } }, deps);
      const seconds = (performance.now() - t0) / 1000;
      const s = run.samples[0]!;
      if (s.verdict !== 'ok' || s.outputTokens !== TOKENS)
        throw new Error(`healthy bench sample was ${s.verdict}: ${s.reasons.join('; ')}`);
      if (i >= 3) rates.push(TOKENS / seconds);
    }
    rates.sort((a, b) => a - b);
    const tps = rates[Math.floor(rates.length / 2)]!;
    console.log(`probe path (stream + live analysis + verdict), ${TOKENS}-token healthy sample, simulator in a worker:`);
    console.log(
      `  median ${Math.round(tps).toLocaleString('en-US')} tokens/s (min ${Math.round(rates[0]!).toLocaleString('en-US')}, ${rates.length} runs)` +
        ` — target >= ${TARGET_TOKENS_PER_SECOND.toLocaleString('en-US')}: ${tps >= TARGET_TOKENS_PER_SECOND ? 'met' : 'NOT met'}`,
    );

    reportSampleMemory(await fetchHealthySse(sim.url, probe.maxTokens));

    console.log(
      `early abort (maxTokens ${TOKENS}, stream paced at ${ABORT_BENCH_TOKENS_PER_SECOND} tokens/s): tokens received when the daemon closed the stream`,
    );
    for (const kind of ['collapse-word', 'collapse-sentence', 'collapse-paragraph', 'collapse-tags', 'collapse-punct', 'whitespace']) {
      const row: string[] = [];
      for (const onset of [500, 2000, 4000]) {
        const model = `${kind}@${onset}`;
        const run = await runProbe(pacedTarget(model), probe, deps);
        const s = run.samples[0]!;
        row.push(
          s.aborted
            ? `onset ${onset} → closed at ${s.tokensAtAbort} (+${s.tokensAtAbort! - onset})`
            : `onset ${onset} → not aborted (${s.verdict})`,
        );
      }
      console.log(`  ${kind.padEnd(19)} ${row.join(' | ')}`);
    }
  } finally {
    await sim.close();
    await paced.close();
  }
}
