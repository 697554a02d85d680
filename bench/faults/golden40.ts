import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { solveGoldenPrompt } from '../../src/simulator/scenarios/golden.js';
import { freePort, stopChild, waitOk } from '../childProcess.js';
import { type Case, CLI, check, closeServer, runCases, serveDaemon, startServer } from './shared.js';

/**
 * Issue 40 item 3 (golden probes) from outside: a daemon (child process) runs a golden probe
 * against a simulator (child process) that answers right for 4 requests and then wrongly
 * (`--release-after 4 --degrade-to golden-wrong`), and against an upstream of this process that
 * answers in hostile ways: terminal controls and 200 KB after ANSWER:, the right answer in the
 * reasoning only, and nothing at all. The correct share must fall after the switch and count
 * nothing for an error, and no hostile answer may reach a reason line raw. About 5 s.
 */

interface RunAnswer {
  verdict: string;
  samples: Array<{
    verdict: string;
    reasons: string[];
    error: { type: string } | null;
    outcome?: { kind: string; correct: boolean; answered: string | null; expected: string };
  }>;
}

/** Streams `content` (and `reasoning` first, as reasoning_content) in 4 KB deltas, then a stop and [DONE]. */
function stream(res: ServerResponse, content: string, reasoning = ''): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (field: string, text: string) => {
    for (let i = 0; i < text.length; i += 4096)
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { [field]: text.slice(i, i + 4096) } }] })}\n\n`);
  };
  send('reasoning_content', reasoning);
  send('content', content);
  res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** /NAME/v1/chat/completions: the hostile answer NAME to the golden task in the request. */
function hostile(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    const name = (req.url ?? '').split('/')[1] ?? '';
    const messages = (JSON.parse(body || '{}') as { messages?: { content?: string }[] }).messages ?? [];
    const right = solveGoldenPrompt(messages.at(-1)?.content ?? '') ?? '?';
    if (name === 'controls') stream(res, `ANSWER: \u001b[2J\u001b]8;;http://evil.example/\u0007${right}\u0007${'x'.repeat(200_000)}`);
    else if (name === 'reasoning') stream(res, 'I worked it out.', `The task is easy.\nANSWER: ${right}`);
    else res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
  });
}

async function post(url: string, token: string): Promise<RunAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as RunAnswer;
}

export async function golden40Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const token = 'golden40-bench-token-0123456789';
  const simPort = await freePort();
  const sim = spawn(
    process.execPath,
    [CLI, 'simulate', '--port', String(simPort), '--tokens-per-second', '0', '--release-after', '4', '--degrade-to', 'golden-wrong'],
    { stdio: 'ignore' },
  );
  const up = await startServer(hostile);
  const port = await freePort();
  const configPath = join(root, 'golden40.yaml');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${token} }
targets:
  - { name: sim, baseUrl: "http://127.0.0.1:${simPort}/v1", model: golden, probes: [golden] }
  - { name: controls, baseUrl: "http://127.0.0.1:${up.port}/controls/v1", model: m, probes: [golden] }
  - { name: reasoning, baseUrl: "http://127.0.0.1:${up.port}/reasoning/v1", model: m, probes: [golden] }
  - { name: down, baseUrl: "http://127.0.0.1:${up.port}/down/v1", model: m, probes: [golden] }
probes:
  - { name: golden, kind: golden, maxTokens: 200000, samples: 4 }
`,
  );
  try {
    await waitOk(`http://127.0.0.1:${simPort}/v1/models`, sim, 20_000);
    const daemon = await serveDaemon(configPath, port);
    const answers = async (target: string) => {
      const text = await (await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      const read = (result: string) =>
        Number(
          new RegExp(`^coherency_golden_answers_total\\{target="${target}",probe="golden",result="${result}"\\} (\\d+)$`, 'm').exec(
            text,
          )?.[1],
        );
      return { correct: read('correct'), wrong: read('wrong') };
    };
    const run = (target: string) => post(`${daemon.url}/probe?target=${target}&probe=golden`, token);
    const cases: Case[] = [
      [
        'golden: a build that answers wrongly after 4 requests',
        async () => {
          const before = await run('sim');
          check(
            before.verdict === 'ok',
            `the healthy build's run was ${before.verdict}: ${before.samples.map((s) => s.reasons.join('; ')).join(' | ')}`,
          );
          const healthy = await answers('sim');
          check(healthy.correct === 4 && healthy.wrong === 0, `after the healthy run: ${JSON.stringify(healthy)}`);
          const after = await run('sim');
          check(after.verdict === 'warn', `the switched build's run was ${after.verdict}, not warn`);
          const switched = await answers('sim');
          check(switched.correct === 4 && switched.wrong === 4, `after the switch: ${JSON.stringify(switched)}`);
          return `share right 1.0 (4 of 4), then 0.5 (4 of 8) after the switch; its run warn, no failed sample`;
        },
      ],
      [
        'golden: terminal controls and 200 KB after ANSWER:',
        async () => {
          const t0 = performance.now();
          const r = await run('controls');
          const ms = performance.now() - t0;
          const reasons = r.samples.flatMap((s) => s.reasons);
          check(
            r.samples.every((s) => s.outcome?.correct === false),
            'an answer with controls counted as right',
          );
          check(!reasons.some((l) => /[\u0000-\u0008\u000b-\u001f\u007f]/.test(l)), 'a reason line holds a raw control character');
          check(
            reasons.every((l) => l.length < 400),
            `a reason line of ${Math.max(...reasons.map((l) => l.length))} characters`,
          );
          check(ms < 15_000, `the run took ${Math.round(ms)} ms`);
          return `4 wrong, reasons escaped and short (longest ${Math.max(...reasons.map((l) => l.length))} chars), run ${Math.round(ms)} ms`;
        },
      ],
      [
        'golden: the right answer in the reasoning only',
        async () => {
          const r = await run('reasoning');
          check(
            r.samples.every((s) => s.outcome?.correct === false && s.outcome.answered === null),
            'the reasoning was read as the answer',
          );
          return `4 wrong, each "no ANSWER: line": only the content is read`;
        },
      ],
      [
        'golden: an upstream that answers 503',
        async () => {
          const r = await run('down');
          check(r.verdict === 'error', `verdict ${r.verdict}`);
          const down = await answers('down');
          check(down.correct === 0 && down.wrong === 0, `an error counted as an answer: ${JSON.stringify(down)}`);
          return 'error samples, the answers counters stay at 0';
        },
      ],
    ];
    try {
      await runCases(cases, results);
    } finally {
      await stopChild(daemon.child);
    }
  } finally {
    await stopChild(sim);
    await closeServer(up);
  }
}
