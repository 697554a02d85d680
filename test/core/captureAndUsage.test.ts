import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeCapture } from '../../src/core/analyzeCapture.js';
import { accumulateSseText } from '../../src/core/streamAccumulator.js';

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}`;

test('usage counts that are negative, fractional or huge are ignored: deltas are counted instead', () => {
  for (const usage of ['{"completion_tokens":-3}', '{"completion_tokens":2.5}', '{"completion_tokens":1e308,"prompt_tokens":-5}']) {
    const r = accumulateSseText(`${chunk('a')}\n\n${chunk('b')}\n\ndata: {"choices":[],"usage":${usage}}\n\ndata: [DONE]\n\n`);
    assert.equal(r.outputTokens, 2, usage);
    assert.equal(r.outputTokensSource, 'deltas', usage);
    assert.equal(r.promptTokens, null, usage);
  }
});

test('a captured stream gives the onset token whatever its line ends and blank lines', () => {
  const tokens: string[] = [];
  for (let i = 0; i < 60; i++) tokens.push(`Word${i} `, `about${i * 7} `, `topic${i % 13}. `);
  const loop = Array.from({ length: 40 }, () => ['The ', 'cache ', 'is ', 'warm ', 'again. ']).flat();
  const events = [...tokens, ...loop].map(chunk);
  const onset = tokens.length;
  for (const [name, sep] of [
    ['LF', '\n\n'],
    ['CRLF', '\r\n\r\n'],
    ['CR', '\r\r'],
    ['no blank lines', '\n'],
  ] as const) {
    const r = analyzeCapture(events.join(sep) + sep + 'data: [DONE]' + sep, 'content');
    assert.equal(r.format, 'sse');
    assert.equal(r.analysis.verdict, 'fail', name);
    const at = Number(r.analysis.metrics['repeatOnsetToken']);
    assert.ok(Math.abs(at - onset) <= 5, `${name}: onset token ${at}, expected about ${onset}`);
  }
});

test('a captured stream gives its finish_reason as evidence: cut by the limit inside a short loop fails', () => {
  const prose = Array.from({ length: 40 }, (_, i) => [`Point${i} `, `covers${i * 3} `, `area${i % 7}. `]).flat();
  const loop = Array.from({ length: 3 }, () => ['Please ', 'check. ']).flat();
  const events = [...prose, ...loop].map(chunk);
  const end = (reason: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: reason }] })}\n\ndata: [DONE]\n\n`;
  const cut = analyzeCapture(events.join('\n\n') + '\n\n' + end('length'), 'content');
  assert.equal(cut.finishReason, 'length');
  assert.equal(cut.analysis.verdict, 'fail', cut.analysis.reasons.join(' | '));
  const stopped = analyzeCapture(events.join('\n\n') + '\n\n' + end('stop'), 'content');
  assert.equal(stopped.finishReason, 'stop');
  assert.notEqual(stopped.analysis.verdict, 'fail', stopped.analysis.reasons.join(' | '));
  // plain text takes the caller's word for it
  const text = prose.join('') + loop.join('');
  assert.equal(analyzeCapture(text, 'content', undefined, 'length').analysis.verdict, 'fail');
  assert.notEqual(analyzeCapture(text, 'content').analysis.verdict, 'fail');
});
