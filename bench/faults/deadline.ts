import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild, waitOk } from '../childProcess.js';
import { CLI, check, runCases, startServer } from './shared.js';

/**
 * Issue 34 (part 5 and the trickle item): a trickling upstream cannot hold a sample slot. A
 * daemon (child process, one sample slot) probes a server that drips `data: x`, usage-only
 * events and comments every 0.5 s, and one that sends a real one-character token a second. The
 * conformance run ends at its deadline (timeouts.runSeconds, or the default derived from the
 * timeouts) with timeout_run, and a run waiting for the slot gets it then; the trickle ends
 * too_slow one slowSeconds window after its first token. About 20 s.
 */

const TOKEN = 'deadline-bench-token-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };
/** The stated windows of this bench's targets. */
const RUN_SECONDS = 4;
const SLOW_SECONDS = 3;

interface Answer {
  status: number;
  body: string;
}

/** A GET on a fresh connection, bounded. */
function get(url: string, headers: Record<string, string> = {}, timeoutMs = 60_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

const JUNK = ['data: x\n\n', 'data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1}}\n\n', ': ping\n\n'];

/** /junk/…: an event stream of junk every 0.5 s, never ending; /trickle/…: one real one-character token a second. */
function drip(req: IncomingMessage, res: ServerResponse): void {
  const name = (req.url ?? '').split('/')[1] ?? '';
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let i = 0;
  const t =
    name === 'trickle'
      ? setInterval(() => res.write(`data: {"choices":[{"index":0,"delta":{"content":"${'abc'[i++ % 3]}"}}]}\n\n`), 1000)
      : setInterval(() => res.write(JUNK[i++ % JUNK.length]!), 500);
  res.on('close', () => clearInterval(t));
}

interface RunAnswer {
  verdict: string;
  /** The run itself; the answer to /probe comes after the target's fingerprint read too (bounded at 3 s, no slot held). */
  durationSeconds: number;
  samples: Array<{ verdict: string; error?: { type: string; message: string } | null; outcome?: { checks?: unknown[] } }>;
}

type Case = [name: string, run: () => Promise<string>];

export async function deadlineCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const upstream = await startServer(drip);
  const port = await freePort();
  const simPort = await freePort();
  const configPath = join(root, 'deadline.yaml');
  const up = `http://127.0.0.1:${upstream.port}`;
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN}, maxConcurrentSamples: 1 }
simulator: { enabled: true, host: 127.0.0.1, port: ${simPort}, tokensPerSecond: 0 }
targets:
  - { name: healthy, baseUrl: "http://127.0.0.1:${simPort}/v1", model: healthy, probes: [p] }
  - { name: junk, baseUrl: "${up}/junk/v1", model: m, probes: [c], timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 60, runSeconds: ${RUN_SECONDS} } }
  - { name: junk-default, baseUrl: "${up}/junk/v1", model: m, probes: [c], timeouts: { connectSeconds: 2, idleSeconds: 1, totalSeconds: 3 } }
  - { name: trickle, baseUrl: "${up}/trickle/v1", model: m, probes: [p], timeouts: { connectSeconds: 2, idleSeconds: 5, totalSeconds: 60, slowSeconds: ${SLOW_SECONDS} } }
probes:
  - { name: p, prompt: "Write a short article about harbours.", maxTokens: 200 }
  - { name: c, kind: conformance, maxTokens: 50 }
`,
  );
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--config', configPath], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, LOG_LEVEL: 'warn', COHERENCY_STORAGE_DIR: join(root, 'deadline-runs') },
  });
  const url = `http://127.0.0.1:${port}`;
  /** A manual run; `seconds` is the run's own duration (a slot wait included), not the answer's. */
  const probe = async (target: string, probeName: string): Promise<{ run: RunAnswer; seconds: number }> => {
    const res = await get(`${url}/probe?target=${target}&probe=${probeName}`, BEARER);
    check(res.status === 200, `GET /probe ${target}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
    const run = JSON.parse(res.body) as RunAnswer;
    return { run, seconds: run.durationSeconds };
  };
  const cases: Case[] = [
    [
      `deadline: a conformance target dripping data: x / usage-only events every 0.5 s holds the one slot at most runSeconds (${RUN_SECONDS} s)`,
      async () => {
        const held = probe('junk', 'c');
        // a healthy run asked 0.5 s later waits for the slot the conformance run holds
        await new Promise((r) => setTimeout(r, 500));
        const waiting = probe('healthy', 'p');
        const [{ run, seconds }, next] = await Promise.all([held, waiting]);
        const s = run.samples[0];
        check(s?.error?.type === 'timeout_run', `ended ${s?.error?.type ?? 'without an error'}: ${s?.error?.message ?? run.verdict}`);
        check(seconds < RUN_SECONDS + 1.5, `the run took ${seconds.toFixed(1)} s`);
        check(next.run.verdict === 'ok', `the waiting healthy run was ${next.run.verdict}`);
        check(next.seconds < RUN_SECONDS + 1, `the waiting healthy run took ${next.seconds.toFixed(1)} s, its slot wait included`);
        return `timeout_run in ${seconds.toFixed(1)} s, ${s?.outcome?.checks?.length ?? 0} checks kept; the run waiting for the slot ok in ${next.seconds.toFixed(1)} s`;
      },
    ],
    [
      'deadline: the same without runSeconds (idle 1, total 3): the default totalSeconds + idleSeconds = 4 s',
      async () => {
        const { run, seconds } = await probe('junk-default', 'c');
        const s = run.samples[0];
        check(s?.error?.type === 'timeout_run', `ended ${s?.error?.type ?? 'without an error'}: ${s?.error?.message ?? run.verdict}`);
        check(seconds < 4 + 1.5, `the run took ${seconds.toFixed(1)} s`);
        return `timeout_run in ${seconds.toFixed(1)} s, ${s?.outcome?.checks?.length ?? 0} checks kept`;
      },
    ],
    [
      `too_slow: a one-character token a second ends one slowSeconds window (${SLOW_SECONDS} s) after its first token`,
      async () => {
        const { run, seconds } = await probe('trickle', 'p');
        const s = run.samples[0];
        check(s?.error?.type === 'too_slow', `ended ${s?.error?.type ?? 'without an error'}: ${s?.error?.message ?? run.verdict}`);
        // first token at 1 s, then one window
        check(seconds < 1 + SLOW_SECONDS + 1.5, `the sample took ${seconds.toFixed(1)} s`);
        return `too_slow in ${seconds.toFixed(1)} s: ${s?.error?.message ?? ''}`;
      },
    ],
  ];
  try {
    await waitOk(`${url}/-/ready`, child, 20_000);
    await runCases(cases, results);
  } finally {
    await stopChild(child);
    for (const socket of upstream.sockets) socket.destroy();
    await new Promise<void>((r) => upstream.server.close(() => r()));
  }
}
