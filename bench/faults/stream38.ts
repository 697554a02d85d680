import { writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort, stopChild } from '../childProcess.js';
import { check, closeServer, runCases, serveDaemon, startServer, type Case } from './shared.js';

/**
 * Issue 38, item 4 (the stream client layered as decode → SSE events → call), as fault cases
 * (`npm run bench -- faults`): an upstream sends one event stream with CRLF line ends and
 * multi-byte characters whole, cut into 1-3 byte writes (a character, a CRLF and a `data:`
 * prefix cut between writes), gzip-compressed against Accept-Encoding: identity and cut the
 * same way, gzip cut short before its end, and encoded as zstd (every other path, the
 * fingerprint reads included, answers zstd too). The daemon (child process) must read the cut
 * streams as it reads the whole one, end the broken ones with an error naming the encoding,
 * and stay up. A few seconds.
 */

const TOKEN = 'stream38-bench-token-0123456789';
const WORDS = [
  'Harbours',
  'shelter',
  'ships',
  'from',
  'storms',
  '—',
  'naïve',
  'façades',
  'line',
  'the',
  'quay',
  '€',
  '😀',
  'and',
  'gulls',
  'wheel.',
];

/** The event stream every route sends (CRLF line ends, one word an event, then finish and [DONE]). */
function body(): Buffer {
  const events = WORDS.map((w, i) => `data: {"choices":[{"index":0,"delta":{"content":"${i === 0 ? w : ` ${w}`}"}}]}\r\n\r\n`);
  events.push('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\r\n\r\n', 'data: [DONE]\r\n\r\n');
  return Buffer.from(events.join(''), 'utf8');
}

/** Writes `bytes` in pieces of 1 to 3 bytes, a millisecond apart, then ends (or cuts) the response. */
function trickle(res: ServerResponse, bytes: Buffer, end: () => void): void {
  let at = 0;
  const next = (): void => {
    if (at >= bytes.length) {
      end();
      return;
    }
    const n = 1 + (at % 3);
    res.write(bytes.subarray(at, at + n));
    at += n;
    setTimeout(next, 1);
  };
  next();
}

function upstream(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const route = (req.url ?? '').split('/')[1] ?? '';
  const sse = body();
  const gz = gzipSync(sse);
  const headers: Record<string, string> = { 'content-type': 'text/event-stream' };
  if (route === 'whole') {
    res.writeHead(200, headers).end(sse);
  } else if (route === 'cut') {
    res.writeHead(200, headers);
    trickle(res, sse, () => res.end());
  } else if (route === 'gzip-cut') {
    res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
    trickle(res, gz, () => res.end());
  } else if (route === 'gzip-short') {
    // the response ends cleanly, the gzip stream does not: its last bytes never come
    res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gz.subarray(0, Math.floor(gz.length / 2)));
  } else {
    res.writeHead(200, { ...headers, 'content-encoding': 'zstd' }).end(sse);
  }
}

interface Sample {
  contentChars: number;
  chunks: number;
  error?: { type: string; message: string } | null;
}

/** One manual run of `target`, its first sample, bounded at 30 s. */
function probe(url: string, target: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/probe?target=${target}&probe=p`,
      { headers: { authorization: `Bearer ${TOKEN}` }, agent: false, timeout: 30_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            check(res.statusCode === 200, `GET /probe ${target}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
            const sample = (JSON.parse(text) as { samples: Sample[] }).samples[0];
            check(sample !== undefined, `GET /probe ${target}: no sample`);
            resolve(sample as Sample);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to /probe ${target} within 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

export async function stream38Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const up = await startServer(upstream);
  const port = await freePort();
  const configPath = join(root, 'stream38.yaml');
  const base = `http://127.0.0.1:${up.port}`;
  const targets = ['whole', 'cut', 'gzip-cut', 'gzip-short', 'zstd']
    .map(
      (t) =>
        `  - { name: ${t}, baseUrl: "${base}/${t}/v1", model: m, probes: [p], timeouts: { connectSeconds: 2, idleSeconds: 5, totalSeconds: 20 } }`,
    )
    .join('\n');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN} }
targets:
${targets}
probes:
  - { name: p, prompt: "Write a short article about harbours.", maxTokens: 200 }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  // A daemon that fell over says why in its last lines: the row carries them.
  const run = (target: string): Promise<Sample> =>
    probe(daemon.url, target).catch((err: Error) => {
      throw new Error(`${err.message}; the daemon's last lines: ${daemon.lines.slice(-25).join(' | ').slice(0, 3000)}`);
    });
  try {
    const whole = await run('whole');
    const same = async (target: string): Promise<string> => {
      const s = await run(target);
      check(s.error == null, `${target} ended ${s.error?.type}: ${s.error?.message}`);
      check(
        s.contentChars === whole.contentChars && s.chunks === whole.chunks,
        `${target}: ${s.contentChars} chars in ${s.chunks} chunks, whole: ${whole.contentChars} in ${whole.chunks}`,
      );
      return `no error, ${s.contentChars} chars in ${s.chunks} chunks, as the stream sent whole`;
    };
    const broken = async (target: string, type: string, says: RegExp): Promise<string> => {
      const s = await run(target);
      check(
        s.error?.type === type && says.test(s.error.message),
        `${target} ended ${s.error?.type ?? 'without an error'}: ${s.error?.message ?? ''}`,
      );
      return `${s.error?.type}: ${s.error?.message.slice(0, 110)}`;
    };
    const cases: Case[] = [
      ['stream38: an event stream in 1-3 byte writes (characters, CRLFs and data: prefixes cut) reads as sent whole', () => same('cut')],
      ['stream38: the same gzip-compressed against Accept-Encoding: identity, its frames cut, reads as sent whole', () => same('gzip-cut')],
      [
        'stream38: a gzip body whose response ends halfway through the gzip stream: malformed, naming gzip',
        () => broken('gzip-short', 'malformed', /gzip-encoded \(not asked for\) and could not be decoded/),
      ],
      [
        'stream38: a body encoded as zstd (not asked for, not decodable): malformed, naming zstd',
        () => broken('zstd', 'malformed', /encoded as "zstd"/),
      ],
      [
        "stream38: the daemon is still up after every target's fingerprint read (GET /v1/models …) was answered zstd-encoded",
        async () => {
          const res = await fetch(`${daemon.url}/-/healthy`, { signal: AbortSignal.timeout(5000) });
          check(res.status === 200, `/-/healthy: HTTP ${res.status}`);
          return 'HTTP 200 (an unheard error of the dropped body used to end the process)';
        },
      ],
    ];
    check(whole.error == null, `the whole stream ended ${whole.error?.type}: ${whole.error?.message}`);
    await runCases(cases, results);
  } finally {
    await stopChild(daemon.child);
    await closeServer(up);
  }
}
