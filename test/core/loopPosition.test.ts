import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../src/core/analyzeText.js';
import { healthyProse } from '../helpers/texts.js';

// Where a loop is matters: a collapse stays in its loop to the end of the output, while
// healthy text may repeat a block and move on.
const before = healthyProse(1200, 21);
const after = healthyProse(1200, 22);
const sentence = 'The cache is warmed before the first request arrives. ';

test('a loop of fail size running to the end fails', () => {
  const a = analyzeText(before + sentence.repeat(12));
  assert.equal(a.verdict, 'fail', a.reasons.join('; '));
  assert.match(a.reasons[0]!, /^sentence_loop: /);
});

test('the same verbatim loop followed by healthy text warns when long, says nothing when short', () => {
  const long = analyzeText(before + sentence.repeat(24) + after);
  assert.equal(long.verdict, 'warn', long.reasons.join('; '));
  assert.match(long.reasons.join('\n'), /sentence_loop: .*then the text moves on/);
  // a few copies of a block and on: what test files and API docs do (1,500 real files)
  const short = analyzeText(before + sentence.repeat(6) + after);
  assert.equal(short.verdict, 'ok', short.reasons.join('; '));
});

test('a verbatim loop that ran away fails wherever it is', () => {
  const a = analyzeText(before + sentence.repeat(60) + after);
  assert.equal(a.verdict, 'fail', a.reasons.join('; '));
});

test('a loop below the fail sizes warns when it runs to the end, says nothing when the text moves on', () => {
  // three and a half copies at the end warn: healthy text ends in at most 2.2 (npm run bench -- thresholds)
  const a = analyzeText(before + sentence.repeat(3) + sentence.slice(0, 40));
  assert.equal(a.verdict, 'warn', a.reasons.join('; '));
  assert.match(a.reasons.join('\n'), /_loop: /);
  assert.equal(analyzeText(before + sentence.repeat(3) + after).verdict, 'ok');
  // four copies of a sentence at the end: healthy text ends in at most 2.2 (npm run bench -- thresholds)
  assert.equal(analyzeText(before + sentence.repeat(4)).verdict, 'fail');
});

test('repeated blocks that vary, followed by more text, are structure, not collapse', () => {
  const cases = Array.from(
    { length: 14 },
    (_, i) => `test('parses case ${i * 7 + 3}', () => {\n  assert.equal(parse('v${i}.${i + 2}'), ${i * 11});\n});\n`,
  ).join('\n');
  const a = analyzeText(before + '\n\n' + cases + '\n' + after);
  assert.equal(a.verdict, 'ok', a.reasons.join('; '));
});
