import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { configSummary } from '../../src/cli/configSummary.js';
import { cliIO } from '../helpers/cliIO.js';
import type { Config } from '../../src/config/types.js';
import { healthyProse } from '../helpers/texts.js';
import { repoPath } from '../helpers/repoRoot.js';

const io = (stdin = '') => cliIO(stdin);

const dir = mkdtempSync(join(tmpdir(), 'coherency-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe('help and usage', () => {
  test('every command has --help, and the top level lists them', async () => {
    const top = io();
    assert.equal(await main(['--help'], top.io), 0);
    for (const cmd of ['serve', 'analyze', 'check-config', 'simulate']) {
      assert.match(top.out(), new RegExp(`\\b${cmd}\\b`));
      const h = io();
      assert.equal(await main([cmd, '--help'], h.io), 0);
      assert.match(h.out(), new RegExp(`coherency-exporter ${cmd}`));
    }
  });

  test('simulate --help lists the defect switches; --api-key-env naming an unset variable is exit 2', async () => {
    const h = io();
    assert.equal(await main(['simulate', '--help'], h.io), 0);
    assert.match(h.out(), /\/defect\/NAME\[\+NAME\.\.\.\]\/v1/);
    for (const d of ['buffered', 'tool-index-zero', 'auth-open', 'finish-rewritten']) assert.match(h.out(), new RegExp(`^ {2}${d} `, 'm'));
    const k = io();
    assert.equal(await main(['simulate', '--port', '0', '--api-key-env', 'SIM_KEY_NOT_SET'], k.io), 2);
    assert.match(k.err(), /--api-key-env: environment variable SIM_KEY_NOT_SET is not set/);
  });

  test('simulate --release-after and --degrade-to: a bad value is exit 2 naming the flag', async () => {
    const h = io();
    assert.equal(await main(['simulate', '--help'], h.io), 0);
    assert.match(h.out(), /--release-after N/);
    const cases: Array<[string[], RegExp]> = [
      [['--release-after', 'soon'], /--release-after: must be a whole number >= 0/],
      [['--release-after=-2'], /--release-after: must be a whole number >= 0/],
      [['--degrade-to', 'collapse-word'], /--degrade-to goes with --release-after/],
      [['--release-speedup', '2'], /--release-speedup goes with --release-after/],
      [['--release-after', '3', '--release-speedup', '0'], /--release-speedup: must be a number > 0/],
      [['--release-after', '3', '--degrade-to', 'no-such-model'], /--degrade-to: .*no-such-model/],
    ];
    for (const [args, message] of cases) {
      const r = io();
      assert.equal(await main(['simulate', '--port', '0', ...args], r.io), 2, args.join(' '));
      assert.match(r.err(), message);
    }
  });

  test('an unknown command or option is exit 2 with a message', async () => {
    const a = io();
    assert.equal(await main(['frobnicate'], a.io), 2);
    assert.match(a.err(), /unknown command "frobnicate"/);
    const b = io();
    assert.equal(await main(['analyze', '--colour'], b.io), 2);
    assert.match(b.err(), /--colour/);
    const c = io();
    assert.equal(await main(['serve', '--port', 'abc'], c.io), 2);
    assert.match(c.err(), /--port: must be an integer/);
    const e = io();
    assert.equal(await main(['serve', '--log-level', 'verbose'], e.io), 2);
    assert.match(e.err(), /log level "verbose"/);
    const d = io();
    assert.equal(await main(['serve', '--shard-index', '1'], d.io), 2);
    assert.match(d.err(), /set both the shard index and the shard count/);
  });
});

describe('check-config', () => {
  test('the shipped configs are valid (exit 0)', async () => {
    const r = io();
    assert.equal(await main(['check-config', repoPath('config', 'coherency.yaml')], r.io), 0);
    assert.match(r.out(), /valid \(9 targets, 8 probes\)/);
  });

  test('an invalid file lists every problem and exits 2', async () => {
    const p = file(
      'bad.yaml',
      'targets:\n  - name: Bad Name\n    baseUrl: ftp://x\n    model: m\nprobes:\n  - name: p\n    prompt: hi\n    maxTokens: -1\n',
    );
    const r = io();
    assert.equal(await main(['check-config', p], r.io), 2);
    assert.match(r.err(), /targets\[0\]\.name: /);
    assert.match(r.err(), /targets\[0\]\.baseUrl: /);
    assert.match(r.err(), /probes\[0\]\.maxTokens: must be a positive integer/);
  });

  test('an unset key variable is a warning, an error with --strict; messages count in the singular too', async () => {
    const p = file(
      'secret.yaml',
      'targets:\n  - name: api\n    baseUrl: https://api.example.com/v1\n    model: m\n    apiKeyEnv: OPENAI_API_KEY\nprobes:\n  - name: p\n    prompt: hi\n    maxTokens: 10\n',
    );
    const r = io();
    assert.equal(await main(['check-config', p], r.io), 0);
    assert.match(r.err(), /warning: targets\[0\]\.apiKeyEnv: environment variable OPENAI_API_KEY is not set/);
    assert.match(r.out(), /valid \(1 target, 1 probe\)/);
    const strict = io();
    assert.equal(await main(['check-config', '--strict', p], strict.io), 2);
    assert.match(strict.err(), /1 problem\n/);
  });

  test('--help says what is checked, the exit codes and --strict', async () => {
    const r = io();
    await main(['check-config', '--help'], r.io);
    const help = r.out() + r.err();
    assert.match(help, /--strict/);
    assert.match(help, /Exit status: 0 valid/);
    assert.match(help, /cron schedules/);
  });
});

describe('analyze', () => {
  const healthy = healthyProse(2000, 9);
  const collapsed = `${healthyProse(800, 4)} ${'We should check the cache again before we continue. '.repeat(80)}`;

  test('healthy text: exit 0 and a readable report', async () => {
    const r = io();
    assert.equal(await main(['analyze', file('ok.txt', healthy)], r.io), 0);
    assert.match(r.out(), /verdict OK/);
  });

  test('a collapsed text from stdin: exit 1, the report says where the loop starts', async () => {
    const r = io(collapsed);
    assert.equal(await main(['analyze', '-'], r.io), 1);
    assert.match(r.out(), /verdict FAIL/);
    assert.match(r.out(), /sentence_loop/);
    assert.match(r.out(), /from char \d+/);
  });

  test('--json prints {verdict, findings, reasons, metrics, score, finishReason}', async () => {
    const r = io();
    assert.equal(await main(['analyze', '--json', file('c.txt', collapsed)], r.io), 1);
    const json = JSON.parse(r.out());
    assert.deepEqual(Object.keys(json), ['verdict', 'findings', 'reasons', 'metrics', 'score', 'finishReason']);
    assert.equal(json.verdict, 'fail');
    assert.ok(json.metrics.repeatOnset > 0);
    // plain text has no token positions: the findings say nothing of tokens, rather than atToken -1
    assert.ok(json.findings.length > 0);
    for (const f of json.findings) assert.equal('atToken' in f, false, JSON.stringify(f));
  });

  test('a captured SSE stream is read by channel, with the onset token', async () => {
    const events = [`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`];
    for (const piece of collapsed.match(/\S+\s*/g)!) {
      events.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}`);
    }
    events.push(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`, 'data: [DONE]');
    const sse = file('cap.sse', events.join('\n\n') + '\n\n');
    const r = io();
    assert.equal(await main(['analyze', '--json', '--channel', 'content', sse], r.io), 1);
    const json = JSON.parse(r.out());
    assert.ok(json.metrics.repeatOnsetToken > 700 && json.metrics.repeatOnsetToken < 900, `onset token ${json.metrics.repeatOnsetToken}`);
    const reasoning = io();
    assert.equal(await main(['analyze', '--channel', 'reasoning', sse], reasoning.io), 1, 'no reasoning in the stream: empty');
  });

  test('--expect-language: an answer in another language is exit 1 with wrong_language; the reasoning of a stream is not read', async () => {
    const german =
      'Der Teig wird danach in eine bemehlte Schüssel gelegt und bleibt über Nacht im Kühlschrank stehen.\n\nAm nächsten Morgen heizt man den Ofen mit dem gusseisernen Topf darin auf die höchste Stufe vor.';
    const wrong = io();
    assert.equal(await main(['analyze', '--expect-language', 'en', file('de.txt', german)], wrong.io), 1);
    assert.match(
      wrong.out(),
      /verdict FAIL\n {2}no degeneration found\n {2}- fail wrong_language: the answer is in German, 0% of it in English/,
    );
    const right = io();
    assert.equal(await main(['analyze', '--expect-language', 'de', '--json', file('de.txt', german)], right.io), 0);
    const json = JSON.parse(right.out());
    assert.equal(json.verdict, 'ok');
    assert.deepEqual(json.language, {
      expected: 'de',
      reading: { letters: [['de', 161]], confidentLetters: 161, whole: null },
      wrongLanguage: false,
    });
    // a stream whose reasoning is English and whose answer is German: the answer is what is read (--channel both:
    // analyzeBoth.test.ts)
    const events = [
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { reasoning_content: healthyProse(600, 2) } }] })}`,
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: german } }] })}`,
      `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
      'data: [DONE]',
    ];
    const stream = io();
    assert.equal(
      await main(
        ['analyze', '--channel', 'content', '--expect-language', 'de', file('think.sse', `${events.join('\n\n')}\n\n`)],
        stream.io,
      ),
      0,
      stream.out(),
    );
    const bad = io();
    assert.equal(await main(['analyze', '--expect-language', 'german', file('de.txt', german)], bad.io), 2);
    assert.match(bad.err(), /^error: --expect-language: an ISO 639-1 code the language identifier knows \(am, ar, .*\), got "german"/);
  });

  test('unreadable input is exit 2', async () => {
    const missing = io();
    assert.equal(await main(['analyze', join(dir, 'nope.txt')], missing.io), 2);
    assert.match(missing.err(), /no such file/);
    const binary = io();
    assert.equal(await main(['analyze', file('bin.dat', new Uint8Array([0xff, 0xfe, 0x00, 0xc3]))], binary.io), 2);
    assert.match(binary.err(), /not UTF-8/);
    const channel = io();
    assert.equal(await main(['analyze', '--channel', 'all', file('x.txt', 'x')], channel.io), 2);
  });
});

describe('start-up line', () => {
  const config = {
    simulator: { enabled: false, host: '127.0.0.1', port: 8089 },
    targets: [
      { name: 'api', baseUrl: 'https://llm.example/v1?api-key=sk-secret', model: 'm', probes: ['short'], apiKeyEnv: 'OPENAI_API_KEY' },
    ],
    probes: [
      { name: 'short', schedule: '*/5 * * * *', maxTokens: 100, samples: 1 },
      { name: 'adhoc', schedule: null, maxTokens: 10, samples: 2 },
    ],
  } as unknown as Config;

  test('names the config source, targets and probes with their schedules, never a query string', () => {
    const s = configSummary(config, 'COHERENCY_CONFIG', '/etc/c.yaml');
    assert.deepEqual(s.summary, { configSource: '$COHERENCY_CONFIG', configPath: '/etc/c.yaml', targets: 1, probes: 2 });
    assert.equal(
      s.message,
      'config from /etc/c.yaml ($COHERENCY_CONFIG); 1 target (api), 2 probes: short (100 tokens, "*/5 * * * *"), adhoc (10 tokens, manual)',
    );
    assert.deepEqual(
      s.dump.probes.map((p) => p.schedule),
      ['*/5 * * * *', 'manual'],
    );
    assert.equal(JSON.stringify(s).includes('sk-secret'), false);
    assert.equal(s.dump.targets[0]!.baseUrl, 'https://llm.example/v1?…');
  });

  test('from OPENAI_BASE_URL: names the endpoint, model and where the key comes from, and the demo file it won over', () => {
    const s = configSummary(config, 'OPENAI_BASE_URL', null, 'config/coherency.yaml');
    assert.match(s.message, /^config from \$OPENAI_BASE_URL: https:\/\/llm\.example\/v1\?…, model m, key from \$OPENAI_API_KEY; /);
    assert.match(s.message, /; config\/coherency\.yaml is not used while OPENAI_BASE_URL is set \(unset it, or pass --config FILE\)$/);
    assert.equal(s.message.includes('sk-secret'), false);
  });
});
