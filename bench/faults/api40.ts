import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { check, closeServer, runCases, serveDaemon, startServer, stillUpCase, type Case } from './shared.js';

/**
 * Issue 40, item 2 (targets on the completions and responses APIs), as fault cases
 * (`npm run bench -- faults`): an upstream that speaks /v1/responses badly (only lifecycle
 * events and no output, text then a hang-up before response.completed, response.failed with the
 * connection held open, response.completed with the connection held open, deltas that are not
 * strings) and one whose /v1/completions sends a 400 naming a field. The daemon (child process)
 * must end each with the error it is (or none), promptly, and stay up. A few seconds.
 */

const TOKEN = 'api40-bench-token-0123456789abcdef';

function event(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

const text = (delta: unknown) => event('response.output_text.delta', { delta });
const WORDS = ['Harbours', ' shelter', ' ships', ' from', ' storms', ' — naïve', ' façades', ' 😀.'];
const completed = event('response.completed', {
  response: { status: 'completed', model: 'm', usage: { input_tokens: 5, output_tokens: WORDS.length } },
});

function upstream(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const route = (req.url ?? '').split('/')[1] ?? '';
  if ((req.url ?? '').endsWith('/models')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    return;
  }
  const sse = { 'content-type': 'text/event-stream' };
  if (route === 'lifecycle-only') {
    // keeps sending events, none of which carries output
    res.writeHead(200, sse);
    res.write(event('response.created', { response: { status: 'in_progress' } }));
    const timer = setInterval(() => res.write(event('response.in_progress', { response: { status: 'in_progress' } })), 100);
    res.on('close', () => clearInterval(timer));
  } else if (route === 'cut') {
    res.writeHead(200, sse).end(WORDS.map(text).join(''));
  } else if (route === 'failed-held') {
    res.writeHead(200, sse);
    res.write(WORDS.slice(0, 3).map(text).join(''));
    res.write(event('response.failed', { response: { status: 'failed', error: { code: 'server_error', message: 'The engine died' } } }));
  } else if (route === 'completed-held') {
    res.writeHead(200, sse);
    res.write(WORDS.map(text).join('') + completed);
  } else if (route === 'odd-deltas') {
    const odd = [text({ x: 1 }), text(42), text(null), 'data: null\n\n', 'data: [1,2]\n\n'];
    res.writeHead(200, sse).end(odd.join('') + WORDS.map(text).join('') + completed);
  } else {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message: 'max_tokens is too large: 99999999', type: 'invalid_request_error', param: 'max_tokens' } }),
    );
  }
}

interface Sample {
  contentChars: number;
  outputTokens: number;
  durationSeconds: number;
  finishReason: string | null;
  error?: { type: string; message: string } | null;
}

/** One manual run of `target`, its first sample, bounded at 30 s. */
async function probe(url: string, target: string): Promise<Sample> {
  const res = await fetch(`${url}/probe?target=${target}&probe=p`, {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: AbortSignal.timeout(30_000),
  });
  const body = await res.text();
  check(res.status === 200, `GET /probe ${target}: HTTP ${res.status} ${body.slice(0, 200)}`);
  const sample = (JSON.parse(body) as { samples: Sample[] }).samples[0];
  check(sample !== undefined, `GET /probe ${target}: no sample`);
  return sample as Sample;
}

export async function api40Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const up = await startServer(upstream);
  const port = await freePort();
  const configPath = join(root, 'api40.yaml');
  const base = `http://127.0.0.1:${up.port}`;
  const target = (name: string, api: string) =>
    `  - { name: ${name}, baseUrl: "${base}/${name}/v1", model: m, api: ${api}, probes: [p], timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 20 } }`;
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN} }
targets:
${['lifecycle-only', 'cut', 'failed-held', 'completed-held', 'odd-deltas'].map((t) => target(t, 'responses')).join('\n')}
${target('refused', 'completions')}
probes:
  - { name: p, prompt: "Write a short article about harbours.", maxTokens: 200 }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  const run = (name: string): Promise<Sample> =>
    probe(daemon.url, name).catch((err: Error) => {
      throw new Error(`${err.message}; the daemon's last lines: ${daemon.lines.slice(-25).join(' | ').slice(0, 3000)}`);
    });
  const ends = async (name: string, type: string | null, says: RegExp, within: number): Promise<string> => {
    const s = await run(name);
    check((s.error?.type ?? null) === type, `${name} ended ${s.error?.type ?? 'without an error'}: ${s.error?.message ?? ''}`);
    check(says.test(s.error?.message ?? `${s.contentChars} chars`), `${name}: ${s.error?.message ?? `${s.contentChars} chars`}`);
    check(s.durationSeconds < within, `${name} took ${s.durationSeconds} s, more than ${within} s`);
    return `${s.error ? `${s.error.type}: ${s.error.message.slice(0, 90)}` : `no error, ${s.contentChars} chars, ${s.outputTokens} tokens`} in ${s.durationSeconds.toFixed(2)} s`;
  };
  try {
    const cases: Case[] = [
      [
        'api40: responses, only lifecycle events every 100 ms and no output: timeout_idle, not held open by them',
        () => ends('lifecycle-only', 'timeout_idle', /no output token for 2 s/, 4),
      ],
      [
        'api40: responses, text then the server hangs up before response.completed: an error, the text kept',
        async () => {
          const s = await run('cut');
          check(
            s.error?.type === 'truncated' && /before response\.completed/.test(s.error.message) && s.contentChars > 0,
            `cut ended ${s.error?.type ?? 'without an error'}: ${s.error?.message ?? ''}, with ${s.contentChars} chars`,
          );
          return `${s.error?.type}: ${s.error?.message.slice(0, 80)}, ${s.contentChars} chars kept`;
        },
      ],
      [
        'api40: responses, response.failed and the connection held open: server_error_event at once, not after the idle timeout',
        () => ends('failed-held', 'server_error_event', /The engine died/, 1.5),
      ],
      [
        'api40: responses, response.completed and the connection held open: done within the 1 s grace, no error',
        () => ends('completed-held', null, new RegExp(`^${WORDS.join('').length} chars$`), 1.8),
      ],
      [
        'api40: responses, deltas that are objects, numbers or null, and data that is null or a list: no crash, only the text is kept',
        async () => {
          const s = await run('odd-deltas');
          check(s.contentChars === WORDS.join('').length, `odd-deltas: ${s.contentChars} chars, want ${WORDS.join('').length}`);
          check(s.error?.type === 'malformed', `odd-deltas ended ${s.error?.type ?? 'without an error'}`);
          return `${s.contentChars} chars (the words only), ${s.error?.type}: ${s.error?.message.slice(0, 60)}`;
        },
      ],
      [
        'api40: completions, HTTP 400 naming max_tokens: an http_status error with the server words',
        () => ends('refused', 'http_status', /max_tokens is too large/, 2),
      ],
      stillUpCase('api40', () => daemon.url),
    ];
    await runCases(cases, results);
  } finally {
    await stopChild(daemon.child);
    await closeServer(up);
  }
}
