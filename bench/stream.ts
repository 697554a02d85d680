import { Worker } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { streamChat, type StreamChatOptions } from '../src/client/streamChat.js';
import { StreamAccumulator } from '../src/core/streamAccumulator.js';
import type { StreamProgress } from '../src/client/streamTypes.js';

/**
 * Cost of the stream path: a loopback server (in a worker thread, so it does not share the
 * measured core) streams a 10k-token completion in vLLM's chunk format, one token per chunk,
 * as fast as the socket takes it. Figures: tokens/s of streamChat end to end, tokens/s of the
 * pure accumulator alone, and heap held per in-flight 10k-token sample.
 */

const TOKENS = 10_000;
const TARGET_TOKENS_PER_SECOND = 100_000;

// Runs inside the worker: plain JS, no imports from the project.
const SERVER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { tokens } = workerData;
const vocab = ['the', ' model', ' streams', ' tokens', ',', ' café', ' naïve', ' 数据', ' 🙂', ' and', ' then', '\\n\\n', ' it', ' stops', '.'];
const id = 'chatcmpl-' + 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const head = '{"id":"' + id + '","object":"chat.completion.chunk","created":1732871000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":';
const frame = (delta, finish) => Buffer.from('data: ' + head + JSON.stringify(delta) + ',"logprobs":null,"finish_reason":' + JSON.stringify(finish) + '}]}\\n\\n');
const chunks = [frame({ role: 'assistant', content: '' }, null)];
for (let i = 0; i < tokens; i++) chunks.push(frame({ content: vocab[i % vocab.length] }, null));
const finish = Buffer.concat([
  frame({ content: '' }, 'length'),
  Buffer.from('data: {"id":"' + id + '","object":"chat.completion.chunk","created":1732871000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[],"usage":{"prompt_tokens":20,"total_tokens":' + (tokens + 20) + ',"completion_tokens":' + tokens + '}}\\n\\n'),
  Buffer.from('data: [DONE]\\n\\n'),
]);
const held = [];
parentPort.on('message', (m) => {
  if (m === 'release') { for (const res of held.splice(0)) res.end(finish); }
});
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const c of chunks) {
      if (!res.write(c)) await new Promise((r) => res.once('drain', r));
    }
    if (req.url.endsWith('/hold')) held.push(res); else res.end(finish);
  });
});
server.listen(0, '127.0.0.1', () => {
  parentPort.postMessage({ port: server.address().port, bytes: chunks.reduce((n, c) => n + c.length, 0) + finish.length });
});
`;

export interface StreamBenchOptions {
  /** Per-read hook, e.g. an incremental analyzer; its cost is then included in the figures. */
  onProgress?: (progress: StreamProgress) => void;
  runs?: number;
  concurrent?: number;
}

interface BenchServer {
  url: string;
  bytes: number;
  release(): void;
  close(): Promise<void>;
}

async function startServer(): Promise<BenchServer> {
  const worker = new Worker(SERVER_SOURCE, { eval: true, workerData: { tokens: TOKENS } });
  const info = await new Promise<{ port: number; bytes: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${info.port}/v1/chat/completions`,
    bytes: info.bytes,
    release: () => worker.postMessage('release'),
    close: async () => {
      await worker.terminate();
    },
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function getGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const request = (url: string) => ({
  url,
  headers: {},
  body: { model: 'bench', stream: true, stream_options: { include_usage: true }, max_tokens: TOKENS, messages: [] },
});

const timeouts = { connectSeconds: 5, idleSeconds: 30, totalSeconds: 120 };

export async function runStreamBench(options: StreamBenchOptions = {}): Promise<void> {
  const runs = options.runs ?? 15;
  const concurrent = options.concurrent ?? 8;
  const server = await startServer();
  try {
    const streamOptions: StreamChatOptions = { timeouts };
    if (options.onProgress !== undefined) streamOptions.onProgress = options.onProgress;

    // 1. streamChat end to end, one sample at a time on this thread's core.
    const rates: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t0 = performance.now();
      const result = await streamChat(request(server.url), streamOptions);
      const seconds = (performance.now() - t0) / 1000;
      if (result.error !== null || result.outputTokens !== TOKENS) {
        throw new Error(`bench stream failed: ${JSON.stringify(result.error)} tokens=${result.outputTokens}`);
      }
      if (i >= 3) rates.push(TOKENS / seconds); // first runs warm the JIT
    }

    // 2. The pure accumulator alone, fed the same body in 64 KiB reads.
    const body = await fetchBody(server.url);
    const accRates: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t0 = performance.now();
      const acc = new StreamAccumulator();
      for (let off = 0; off < body.length; off += 65536) acc.push(body.subarray(off, off + 65536), 0);
      acc.end(0);
      const seconds = (performance.now() - t0) / 1000;
      if (acc.result().outputTokens !== TOKENS) throw new Error('accumulator bench miscounted');
      if (i >= 3) accRates.push(TOKENS / seconds);
    }

    // 3. Heap held per in-flight sample: N samples that have all received 10k tokens and wait for [DONE].
    const gc = getGc();
    gc();
    const before = process.memoryUsage();
    const holdUrl = server.url.replace(/\/chat\/completions$/, '/chat/completions/hold');
    let full = 0;
    let allFull: () => void = () => undefined;
    const reachedFull = new Promise<void>((resolve) => {
      allFull = resolve;
    });
    const pending = Array.from({ length: concurrent }, () => {
      let counted = false;
      return streamChat(request(holdUrl), {
        timeouts,
        onProgress: (p) => {
          options.onProgress?.(p);
          if (!counted && p.tokens >= TOKENS) {
            counted = true;
            if (++full === concurrent) allFull();
          }
        },
      });
    });
    await reachedFull;
    gc();
    const during = process.memoryUsage();
    server.release();
    const held = await Promise.all(pending);
    if (held.some((r) => r.error !== null)) throw new Error('a held sample failed');
    const heapPerSample = (during.heapUsed - before.heapUsed) / concurrent;
    const externalPerSample = (during.external + during.arrayBuffers - before.external - before.arrayBuffers) / concurrent;

    const tps = median(rates);
    const mb = (n: number): string => (n / 1024 / 1024).toFixed(2);
    console.log(
      `stream bench: ${TOKENS} tokens/sample, ${(server.bytes / 1024 / 1024).toFixed(2)} MiB of SSE per sample, vLLM chunk format`,
    );
    console.log(
      `  streamChat end to end (loopback, one core): median ${Math.round(tps).toLocaleString('en-US')} tokens/s ` +
        `(min ${Math.round(Math.min(...rates)).toLocaleString('en-US')}, max ${Math.round(Math.max(...rates)).toLocaleString('en-US')}, ${runs} runs)` +
        ` — target >= ${TARGET_TOKENS_PER_SECOND.toLocaleString('en-US')}: ${tps >= TARGET_TOKENS_PER_SECOND ? 'met' : 'NOT met'}`,
    );
    console.log(`  accumulator alone (64 KiB reads):           median ${Math.round(median(accRates)).toLocaleString('en-US')} tokens/s`);
    console.log(
      `  memory held per in-flight 10k-token sample (${concurrent} concurrent, after gc): heap ${mb(heapPerSample)} MiB, external ${mb(Math.max(0, externalPerSample))} MiB`,
    );
  } finally {
    await server.close();
  }
}

async function fetchBody(url: string): Promise<Buffer> {
  const { request: undiciRequest } = await import('undici');
  const res = await undiciRequest(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  return Buffer.from(await res.body.arrayBuffer());
}
