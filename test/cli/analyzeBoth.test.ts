import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { accumulateSseText } from '../../src/core/streamAccumulator.js';
import { judgeSample } from '../../src/probe/judgeSample.js';
import { cliIO } from '../helpers/cliIO.js';
import { streamResult, testProbe } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

// `analyze --channel both` on a stream with reasoning and an answer judges each channel apart,
// as the daemon's judgeSample does: a reasoning model that thinks in English and answers in
// German is healthy, not a language_switch of one text made of the two.

const dir = mkdtempSync(join(tmpdir(), 'coherency-analyze-both-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const GERMAN = [
  'Der Teig wird danach in eine bemehlte Schüssel gelegt und bleibt über Nacht im Kühlschrank stehen, damit er langsam aufgeht und sein Aroma entwickelt.',
  'Am nächsten Morgen heizt man den Ofen mit dem gusseisernen Topf darin auf die höchste Stufe vor, mindestens eine halbe Stunde lang.',
  'Dann stürzt man den Teig vorsichtig auf ein Stück Backpapier, schneidet ihn oben mit einem scharfen Messer ein und hebt ihn in den heißen Topf.',
  'Mit geschlossenem Deckel backt das Brot zwanzig Minuten, danach ohne Deckel noch einmal so lange, bis die Kruste dunkelbraun ist und hohl klingt.',
].join('\n\n');

const LOOP = 'Wait, let me check the cache configuration again before I continue. ';

/** A captured chat-completion stream: reasoning deltas, then content deltas, then the finish reason. */
function capture(reasoning: string, content: string, finish = 'stop'): string {
  const events = [`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`];
  for (const piece of reasoning.match(/\S+\s*/g) ?? []) {
    events.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { reasoning_content: piece } }] })}`);
  }
  for (const piece of content.match(/\S+\s*/g) ?? []) {
    events.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}`);
  }
  events.push(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"${finish}"}]}`, 'data: [DONE]');
  return `${events.join('\n\n')}\n\n`;
}

let n = 0;
const file = (sse: string) => {
  const p = join(dir, `capture-${n++}.sse`);
  writeFileSync(p, sse);
  return p;
};

async function analyzeJson(sse: string, ...flags: string[]) {
  const r = cliIO();
  const code = await main(['analyze', '--json', ...flags, file(sse)], r.io);
  return { code, json: JSON.parse(r.out()), err: r.err() };
}

/** The daemon's verdict on the same stream: judgeSample on what the stream accumulates to. */
function daemonVerdict(sse: string): string {
  const acc = accumulateSseText(sse);
  const result = streamResult({ ...acc, outputTokens: acc.outputTokens, finishReason: acc.finishReason });
  return judgeSample(result, testProbe({ minTokens: 0 }), 0).verdict;
}

describe('analyze --channel both judges the reasoning and the answer apart', () => {
  const englishReasoning = healthyProse(600, 2);

  test('English reasoning, German answer: exit 0, as the daemon passes it', async () => {
    const sse = capture(englishReasoning, GERMAN);
    const r = cliIO();
    assert.equal(await main(['analyze', file(sse)], r.io), 0, r.out());
    assert.match(r.out(), /^\S+ \(captured stream, both\): verdict OK/);
    assert.match(r.out(), /\nanswer \(content\): verdict OK\n/);
    assert.match(r.out(), /\nreasoning: verdict OK\n/);
    const { code, json } = await analyzeJson(sse);
    assert.equal(code, 0);
    assert.equal(json.verdict, 'ok');
    assert.equal(daemonVerdict(sse), 'ok');
  });

  test('--json keeps its keys and adds each channel', async () => {
    const { json } = await analyzeJson(capture(englishReasoning, GERMAN), '--expect-language', 'de');
    assert.deepEqual(Object.keys(json), ['verdict', 'findings', 'reasons', 'metrics', 'score', 'finishReason', 'language', 'channels']);
    assert.deepEqual(Object.keys(json.channels), ['content', 'reasoning']);
    for (const c of ['content', 'reasoning']) {
      assert.deepEqual(Object.keys(json.channels[c]), ['verdict', 'findings', 'reasons', 'metrics', 'score'], c);
    }
    // metrics and score are the answer's
    assert.deepEqual(json.metrics, json.channels.content.metrics);
    assert.deepEqual(json.score, json.channels.content.score);
    assert.equal(json.metrics.chars, GERMAN.length);
    assert.equal(json.language.wrongLanguage, false);
  });

  test('--expect-language reads the answer: its wrong_language is under the combined verdict', async () => {
    const r = cliIO();
    assert.equal(await main(['analyze', '--expect-language', 'en', file(capture(englishReasoning, GERMAN))], r.io), 1);
    assert.match(
      r.out(),
      /^\S+ \(captured stream, both\): verdict FAIL \(answer ok, reasoning ok\)\n {2}- fail wrong_language: the answer is in German/,
    );
    assert.match(r.out(), /\n\nanswer \(content\): verdict OK\n/);
  });

  test('a looping reasoning and a healthy answer: exit 1, the finding is the reasoning', async () => {
    const sse = capture(`${healthyProse(300, 3)} ${LOOP.repeat(80)}`, healthyProse(400, 5));
    const { code, json } = await analyzeJson(sse);
    assert.equal(code, 1);
    assert.equal(json.verdict, 'fail');
    assert.equal(json.channels.content.verdict, 'ok');
    assert.equal(json.channels.reasoning.verdict, 'fail');
    assert.ok(json.findings.length > 0);
    for (const f of json.findings) assert.equal(f.channel, 'reasoning', JSON.stringify(f));
    for (const r of json.reasons) assert.match(r, /^reasoning: /);
    assert.equal(daemonVerdict(sse), 'fail');
    const text = cliIO();
    assert.equal(await main(['analyze', file(sse)], text.io), 1);
    assert.match(text.out(), /^\S+ \(captured stream, both\): verdict FAIL/);
    assert.match(text.out(), /\nreasoning: verdict FAIL\n/);
  });

  test('a healthy reasoning and a looping answer: exit 1, the finding is the answer', async () => {
    const sse = capture(englishReasoning, `${healthyProse(300, 4)} ${LOOP.repeat(80)}`, 'length');
    const { code, json } = await analyzeJson(sse);
    assert.equal(code, 1);
    assert.equal(json.channels.content.verdict, 'fail');
    assert.equal(json.channels.reasoning.verdict, 'ok');
    assert.ok(json.findings.length > 0);
    for (const f of json.findings) assert.equal(f.channel, 'content', JSON.stringify(f));
    for (const r of json.reasons) assert.doesNotMatch(r, /^reasoning: /);
    // the answer's findings carry stream token positions, as with --channel content
    assert.ok(json.metrics.repeatOnsetToken > 0, `onset token ${json.metrics.repeatOnsetToken}`);
    assert.equal(daemonVerdict(sse), 'fail');
  });

  test('a loop that starts in the reasoning and runs on into the answer is caught in each', async () => {
    const sse = capture(`${healthyProse(300, 6)} ${LOOP.repeat(60)}`, LOOP.repeat(60), 'length');
    const { code, json } = await analyzeJson(sse);
    assert.equal(code, 1);
    assert.equal(json.channels.content.verdict, 'fail');
    assert.equal(json.channels.reasoning.verdict, 'fail');
    assert.deepEqual([...new Set(json.findings.map((f: { channel: string }) => f.channel))], ['content', 'reasoning']);
    assert.equal(daemonVerdict(sse), 'fail');
  });

  test('one channel only: both is that channel, as before', async () => {
    const answerOnly = capture('', GERMAN);
    const both = await analyzeJson(answerOnly);
    const content = await analyzeJson(answerOnly, '--channel', 'content');
    assert.equal(both.code, 0);
    assert.deepEqual(both.json, content.json);
    assert.deepEqual(Object.keys(both.json.channels), ['content']);
    const thinkingOnly = await analyzeJson(capture(`${healthyProse(300, 7)} ${LOOP.repeat(80)}`, '', 'length'));
    assert.equal(thinkingOnly.code, 1);
    assert.deepEqual(Object.keys(thinkingOnly.json.channels), ['reasoning']);
    for (const f of thinkingOnly.json.findings) assert.equal(f.channel, 'reasoning');
  });

  test('the verdicts of analyze and of the daemon agree on each of these streams', async () => {
    const streams = [
      capture(englishReasoning, GERMAN),
      capture(healthyProse(200, 8), healthyProse(500, 9)),
      capture(`${healthyProse(300, 3)} ${LOOP.repeat(80)}`, GERMAN),
      capture(englishReasoning, `${GERMAN}\n\n${'der Teig der Teig '.repeat(300)}`, 'length'),
    ];
    for (const sse of streams) {
      const { json } = await analyzeJson(sse);
      assert.equal(json.verdict, daemonVerdict(sse));
    }
  });
});
