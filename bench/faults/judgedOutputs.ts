import { writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { type Case, check, closeServer, runCases, serveDaemon, startServer } from './shared.js';

/**
 * Detection from outside, the way a user meets it: a daemon (child process) probes an upstream
 * that streams fixed outputs, and each output's sample verdict is checked. The detection fault
 * files (shortff.ts, realworld.ts) are their outputs and expected verdicts; this is the rest.
 */

/** One table of outputs and what the daemon must say of each. */
export interface JudgedOutputs {
  /** Names the config file and the daemon's token. */
  name: string;
  /** Prefix of each case's name in the table (`real files`, `short outputs`). */
  label: string;
  /** What each upstream path answers. */
  outputs: Readonly<Record<string, string>>;
  maxTokens: number;
  /** [output name, expected verdict, what the output is]. */
  expect: ReadonlyArray<[name: string, verdict: 'ok' | 'fail', what: string]>;
}

interface RunAnswer {
  verdict: string;
  samples: Array<{ verdict: string; reasons?: string[]; error?: { type: string; message: string } | null }>;
}

/** /NAME/v1/chat/completions: outputs[NAME] as an event stream, 12 chars a delta, then a stop and [DONE]. */
export function upstreamOf(outputs: Readonly<Record<string, string>>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const name = (req.url ?? '').split('/')[1] ?? '';
    const text = Object.hasOwn(outputs, name) ? outputs[name] : undefined;
    req.resume();
    if (text === undefined || !(req.url ?? '').endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chars = [...text];
    for (let i = 0; i < chars.length; i += 12) {
      const delta = { choices: [{ index: 0, delta: { content: chars.slice(i, i + 12).join('') } }] };
      res.write(`data: ${JSON.stringify(delta)}\n\n`);
    }
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  };
}

/** A GET with the bearer token on a fresh connection, bounded. */
function probe(url: string, token: string): Promise<RunAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, agent: false, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`));
        else resolve(JSON.parse(body) as RunAnswer);
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** Runs the table against a daemon of its own, one target per output; adds a row per expected verdict. */
export async function judgedOutputCases(root: string, results: Array<[string, boolean, string]>, t: JudgedOutputs): Promise<void> {
  const token = `${t.name}-bench-token-0123456789`;
  const up = await startServer(upstreamOf(t.outputs));
  const port = await freePort();
  const configPath = join(root, `${t.name}.yaml`);
  const targets = Object.keys(t.outputs)
    .map((name) => `  - { name: ${name}, baseUrl: "http://127.0.0.1:${up.port}/${name}/v1", model: m, probes: [p] }`)
    .join('\n');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${token} }
targets:
${targets}
probes:
  - { name: p, prompt: "Answer briefly.", maxTokens: ${t.maxTokens} }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  const cases: Case[] = t.expect.map(([target, want, what]) => [
    `${t.label}: ${what} -> ${want}`,
    async () => {
      const run = await probe(`${daemon.url}/probe?target=${target}&probe=p`, token);
      const s = run.samples[0];
      check(s !== undefined && !s.error, `${target}: ${s?.error ? `${s.error.type}: ${s.error.message}` : 'no sample'}`);
      const reason = s!.reasons?.[0] ?? '';
      check(s!.verdict === want, `${s!.verdict}${reason ? `: ${reason.slice(0, 160)}` : ''}`);
      return `${s!.verdict}${reason ? `: ${reason.slice(0, 120)}` : ''}`;
    },
  ]);
  try {
    await runCases(cases, results);
  } finally {
    await stopChild(daemon.child);
    await closeServer(up);
  }
}
