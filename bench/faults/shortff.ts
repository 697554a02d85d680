import { writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { type Case, check, closeServer, runCases, serveDaemon, startServer } from './shared.js';

/**
 * Issues 35 and 36 from outside: a daemon (child process) probes an upstream that streams fixed
 * outputs, and judges each as a whole sample. Short collapses the token reading missed (special
 * tokens in a cycle, two items alternating while their counters rise) must fail; healthy shapes a
 * missing normalisation once failed (Chinese exam answers with end tags glued to their lines, a
 * product title strung of capitalised keywords) must stay ok. About 5 s.
 */

const TOKEN = 'shortff-bench-token-0123456789';

/** What each upstream path answers, written for this bench. */
const OUTPUTS: Record<string, string> = {
  cycle: ' <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT>',
  counters: `${['奈良', '京都', '大阪', '兵庫', '滋賀', '三重'].map((p, i) => `${i + 1}.${p}`).join('\n')}\n${Array.from(
    { length: 14 },
    (_, i) => `${i + 7}.${i % 2 ? '和歌山' : '徳島'}`,
  ).join('\n')}`,
  exam: [
    '（1）【答案】B、C <eoa>',
    '（2）【答案】这首词上片写景，下片抒情，"归路"在这里指回乡的路，表达了作者对故乡深沉的思念和漂泊在外的孤独。<eoa>',
  ].join('\n'),
  title: [
    '| Item | Price | Rating |',
    '| ------ | ------ | ------ |',
    '| Lumora (LX2) | $12.49 | 4.6 |',
    '| 24-Piece Brush Set | $19.99 | 4.7 |',
    '',
    'The Lumora Watercolor Brushes Round Brushes Flat Brushes Detail Brushes Fine Tip Nylon Brushes Synthetic Bristle Brush Set for Painting Sketching Calligraphy Lettering Craft Hobby Studio Classroom Art Supplies, 24 Piece are a fair buy at their prices and suit any careful painter or student.',
  ].join('\n'),
};

/** /NAME/v1/chat/completions: OUTPUTS[NAME] as an event stream, 12 chars a delta, then a stop and [DONE]. */
function upstream(req: IncomingMessage, res: ServerResponse): void {
  const name = (req.url ?? '').split('/')[1] ?? '';
  const text = OUTPUTS[name];
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
}

interface RunAnswer {
  verdict: string;
  samples: Array<{ verdict: string; reasons?: string[]; error?: { type: string; message: string } | null }>;
}

/** A GET with the bearer token on a fresh connection, bounded. */
function probe(url: string): Promise<RunAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${TOKEN}` }, agent: false, timeout: 30_000 }, (res) => {
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

export async function shortffCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const up = await startServer(upstream);
  const port = await freePort();
  const configPath = join(root, 'shortff.yaml');
  const targets = Object.keys(OUTPUTS)
    .map((name) => `  - { name: ${name}, baseUrl: "http://127.0.0.1:${up.port}/${name}/v1", model: m, probes: [p] }`)
    .join('\n');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN} }
targets:
${targets}
probes:
  - { name: p, prompt: "Answer briefly.", maxTokens: 200 }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  /** The sample's verdict and its first reason. */
  const judged = async (target: string): Promise<{ verdict: string; reason: string }> => {
    const run = await probe(`${daemon.url}/probe?target=${target}&probe=p`);
    const s = run.samples[0];
    check(s !== undefined && !s.error, `${target}: ${s?.error ? `${s.error.type}: ${s.error.message}` : 'no sample'}`);
    return { verdict: s!.verdict, reason: s!.reasons?.[0] ?? '' };
  };
  const expect = (target: string, want: 'ok' | 'fail', what: string): Case => [
    `short outputs: ${what} -> ${want}`,
    async () => {
      const { verdict, reason } = await judged(target);
      check(verdict === want, `${verdict}${reason ? `: ${reason.slice(0, 160)}` : ''}`);
      return `${verdict}${reason ? `: ${reason.slice(0, 120)}` : ''}`;
    },
  ];
  const cases: Case[] = [
    expect('cycle', 'fail', 'special tokens in a cycle, 3.4 copies as the whole output'),
    expect('counters', 'fail', 'two items alternating 7 times while their counters rise'),
    expect('exam', 'ok', 'a Chinese exam answer with <eoa> glued to its lines and ASCII quotes'),
    expect('title', 'ok', 'a price table then a product title strung of capitalised keywords'),
  ];
  try {
    await runCases(cases, results);
  } finally {
    await stopChild(daemon.child);
    await closeServer(up);
  }
}
