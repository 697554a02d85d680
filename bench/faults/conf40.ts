import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { check, closeServer, runCases, serveDaemon, startServer, stillUpCase, type Case } from './shared.js';

/**
 * Issue 40, item 2 (conformance on the completions and responses APIs), as fault cases
 * (`npm run bench -- faults`): a conformance probe of a responses target and of a completions
 * target whose upstream answers every request with JSON of the wrong types (ids and counts as
 * strings, output items that are null or numbers, function calls whose arguments are objects,
 * a stream of events without a type, deltas that are objects, a response.completed whose
 * response is a string), and one whose upstream answers with ten thousand output items. The
 * daemon (child process) must judge every check (pass, fail or skipped: none crashes into
 * internal_error), fail the run, and stay up. A few seconds.
 */

const TOKEN = 'conf40-bench-token-0123456789abcdef';

function event(type: unknown, fields: Record<string, unknown> = {}): string {
  return `event: ${String(type)}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

/** A response of the wrong types everywhere a client reads one. */
const WRONG_RESPONSE = {
  id: 7,
  object: 'response',
  created_at: 'yesterday',
  status: 'weird',
  model: ['m'],
  output: [
    null,
    5,
    { type: 'function_call', call_id: 7, name: null, arguments: { city: 'Paris' } },
    { type: 'message', content: 'not a list' },
    { type: 'reasoning', content: [{ type: 'reasoning_text', text: 42 }] },
  ],
  usage: { input_tokens: '5', output_tokens: -1, total_tokens: 1e300 },
};

const WRONG_RESPONSE_STREAM = [
  event(undefined, { delta: 'no type' }),
  event('response.output_text.delta', { delta: { text: 'an object' } }),
  event('response.output_item.added', { output_index: 'x', item: null }),
  event('response.output_item.added', { output_index: 0, item: { type: 'function_call', call_id: null, name: 3, arguments: 4 } }),
  event('response.function_call_arguments.delta', { output_index: { i: 0 }, delta: 9 }),
  event('response.reasoning_text.delta', { delta: ['a'] }),
  'data: [DONE]\n\n',
  event('response.completed', { response: 'a string' }),
].join('');

/** A completion whose choices are of the wrong types. */
const WRONG_COMPLETION = {
  id: null,
  object: 1,
  created: '1',
  model: 'm',
  choices: [{ index: '0', text: 5, finish_reason: 7 }],
  usage: 'none',
};
const WRONG_COMPLETION_STREAM = [
  'data: {"choices":"none"}\n\n',
  'data: {"choices":[null,{"index":0,"text":{"t":1}}]}\n\n',
  'data: {"choices":[{"index":0,"text":"word","finish_reason":"odd"}],"usage":{"completion_tokens":"1"}}\n\n',
  'data: [DONE]\n\n',
].join('');

/** A response of ten thousand output items (one message, the rest function calls). */
function manyItems(): string {
  const output: unknown[] = [{ type: 'message', content: [{ type: 'output_text', text: 'Temperature.' }] }];
  for (let i = 0; i < 10_000; i++) output.push({ type: 'function_call', call_id: `call_${i}`, name: 'get_weather', arguments: '{}' });
  return JSON.stringify({ ...WRONG_RESPONSE, id: 'r', created_at: 1, status: 'completed', model: 'm', output });
}

function upstream(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const route = (req.url ?? '').split('/')[1] ?? '';
    if ((req.url ?? '').endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"m"}]}');
      return;
    }
    let stream = false;
    try {
      stream = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: unknown }).stream === true;
    } catch {
      stream = false;
    }
    const json = { 'content-type': 'application/json' };
    const sse = { 'content-type': 'text/event-stream' };
    if (route === 'wrong-responses')
      res.writeHead(200, stream ? sse : json).end(stream ? WRONG_RESPONSE_STREAM : JSON.stringify(WRONG_RESPONSE));
    else if (route === 'wrong-completions')
      res.writeHead(200, stream ? sse : json).end(stream ? WRONG_COMPLETION_STREAM : JSON.stringify(WRONG_COMPLETION));
    else res.writeHead(200, stream ? sse : json).end(stream ? WRONG_RESPONSE_STREAM : manyItems());
  });
}

interface Check {
  check: string;
  status: string;
  reason: string;
}

/** One manual run of `target`'s conformance probe: its verdict and checks, bounded at 60 s. */
async function conformance(url: string, target: string): Promise<{ verdict: string; checks: Check[]; seconds: number }> {
  const res = await fetch(`${url}/probe?target=${target}&probe=c`, {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: AbortSignal.timeout(60_000),
  });
  const body = await res.text();
  check(res.status === 200, `GET /probe ${target}: HTTP ${res.status} ${body.slice(0, 200)}`);
  const sample = (JSON.parse(body) as { samples: { verdict: string; durationSeconds: number; outcome?: { checks: Check[] } }[] })
    .samples[0];
  check(sample?.outcome !== undefined, `GET /probe ${target}: no checklist`);
  return { verdict: sample!.verdict, checks: sample!.outcome!.checks, seconds: sample!.durationSeconds };
}

export async function conf40Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const up = await startServer(upstream);
  const port = await freePort();
  const configPath = join(root, 'conf40.yaml');
  const base = `http://127.0.0.1:${up.port}`;
  const target = (name: string, api: string) =>
    `  - { name: ${name}, baseUrl: "${base}/${name}/v1", model: m, api: ${api}, probes: [c], timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 20 } }`;
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN} }
targets:
${target('wrong-responses', 'responses')}
${target('wrong-completions', 'completions')}
${target('many-items', 'responses')}
probes:
  - { name: c, kind: conformance, maxTokens: 64 }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  const judged = async (name: string): Promise<string> => {
    const r = await conformance(daemon.url, name).catch((err: Error) => {
      throw new Error(`${err.message}; the daemon's last lines: ${daemon.lines.slice(-25).join(' | ').slice(0, 3000)}`);
    });
    const crashed = r.checks.filter((c) => c.reason === 'internal_error').map((c) => c.check);
    check(crashed.length === 0, `${name}: ${crashed.join(', ')} crashed into internal_error`);
    check(r.checks.length === 8, `${name}: ${r.checks.length} checks, not 8`);
    check(r.verdict === 'fail', `${name}: verdict ${r.verdict}, not fail`);
    return `${r.verdict} in ${r.seconds.toFixed(2)} s: ${r.checks.map((c) => `${c.check} ${c.status === 'fail' ? c.reason : c.status}`).join(', ')}`;
  };
  try {
    const cases: Case[] = [
      [
        'conf40: responses, every field of the wrong type, streamed and not: each check judged (no internal_error), the run fails',
        () => judged('wrong-responses'),
      ],
      [
        'conf40: completions, choices and usage of the wrong types, streamed and not: each check judged, the run fails',
        () => judged('wrong-completions'),
      ],
      ['conf40: responses, ten thousand output items: each check judged, the run fails', () => judged('many-items')],
      stillUpCase('conf40', () => daemon.url),
    ];
    await runCases(cases, results);
  } finally {
    await stopChild(daemon.child);
    await closeServer(up);
  }
}
