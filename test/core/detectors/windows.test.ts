import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { F_GIBBERISH, F_SCRIPT } from '../../../src/core/detectors/windows.js';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

function salad(words: number): string {
  const vocab = [
    'quantum',
    'ledger',
    'purple',
    'engine',
    'forest',
    'mineral',
    'orbit',
    'candle',
    'harbor',
    'silicon',
    'velvet',
    'thunder',
    'garden',
    'crystal',
    'lantern',
    'meadow',
  ];
  return Array.from({ length: words }, (_, i) => vocab[(i * 7 + (i >> 3)) % vocab.length]).join(' ');
}

describe('windows detector', () => {
  it('word salad running to the end fails', () =>
    assert.deepEqual(verdicts(detect('windows', healthyProse(300, 1) + ' ' + salad(900)).findings), ['word_salad/fail!']));
  it('a switch into another script fails', () => {
    const { findings, figures } = detect(
      'windows',
      healthyProse(400, 1) + ' ' + '这是一个关于系统延迟的长篇说明，我们会继续讨论缓存和队列。'.repeat(30),
    );
    assert.deepEqual(verdicts(findings), ['script_switch/fail!']);
    assert.ok(figures.flagged[F_SCRIPT]! >= 3);
  });
  it('odd chars (U+FFFD) in a window are gibberish', () => {
    const text = healthyProse(200, 1) + ' ' + 'ab\ufffdcd \ufffd\ufffdxy '.repeat(200);
    const { figures, findings } = detect('windows', text);
    assert.ok(figures.flagged[F_GIBBERISH]! > 0);
    assert.ok(verdicts(findings).includes('gibberish/fail!'));
  });
  it('healthy prose, code and Chinese text opened in Chinese say nothing', () => {
    assert.deepEqual(verdicts(detect('windows', healthyProse(2000, 8)).findings), []);
    assert.deepEqual(verdicts(detect('windows', '这是一个关于系统延迟的长篇说明，我们会继续讨论缓存和队列。'.repeat(60)).findings), []);
  });
  it('stutter is words doubled, not numbers repeated in data', () => {
    const stutter = healthyProse(100, 1)
      .split(' ')
      .map((w) => `${w} ${w}`)
      .join(' ');
    assert.ok(verdicts(detect('windows', stutter).findings).includes('stutter/fail'));
    const shadows = Array.from({ length: 60 }, (_, i) => `  ${i % 3}px ${i % 2}px 0 rgba(0, 0, 0, 0.${i % 9}),`).join('\n');
    assert.deepEqual(verdicts(detect('windows', '.glow {\n  text-shadow:\n' + shadows + '\n}\n').findings), []);
  });
  it('char soup (random case inside words, digits, few vowels) is gibberish; upper-case constants with digits are not', () => {
    let x = 7;
    const rand = () => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      return x / 0x80000000;
    };
    const soupChars = 'bcdfghjklmnpqrstvwxzBCDFGHJKLMNPQRSTVWXZ0123456789ae';
    const soup = Array.from({ length: 300 }, () =>
      Array.from({ length: 4 + Math.floor(rand() * 6) }, () => soupChars[Math.floor(rand() * soupChars.length)]).join(''),
    ).join(' ');
    assert.ok(verdicts(detect('windows', healthyProse(200, 1) + ' ' + soup).findings).includes('gibberish/fail!'), 'soup');
    // the HTTP/2 constants of a type declaration: HTTP2 and NGHTTP2 mix letters and digits,
    // but every word is in one case, upper (the names) or lower (const, string)
    const parts = ['HEADER', 'STATUS', 'METHOD', 'SETTINGS', 'MAX', 'FRAME', 'SIZE', 'WINDOW', 'PUSH', 'STREAM', 'CONTROL', 'ALLOW'];
    const constants = Array.from(
      { length: 120 },
      (_, i) =>
        `        const ${i % 3 === 0 ? 'NGHTTP2' : 'HTTP2'}_${parts[i % 12]}_${parts[(i * 5 + 3) % 12]}_${parts[(i * 7 + 1) % 12]}: ${i % 2 ? 'string' : 'number'};`,
    ).join('\n');
    assert.deepEqual(verdicts(detect('windows', healthyProse(200, 1) + '\n' + constants).findings), []);
  });
  it('prose that lost its spaces is glued words; an index of long camelCase API names is not', () => {
    const glued = healthyProse(400, 2)
      .split('. ')
      .map((sentence) => sentence.replace(/\s+/g, ''))
      .join('. ');
    assert.ok(
      verdicts(detect('windows', healthyProse(200, 1) + ' ' + glued).findings).some((v) => v.startsWith('word_salad/fail')),
      'glued prose',
    );
    // the names of Node's perf_hooks and web streams docs, 17-31 letters, one per list item
    const names = [
      'performanceResourceTiming',
      'ReadableStreamDefaultController',
      'WritableStreamDefaultWriter',
      'ReadableByteStreamController',
    ];
    const members = ['domainLookupStart', 'secureConnectionStart', 'desiredSize', 'enqueue', 'responseEnd', 'transferSize'];
    const index = Array.from({ length: 80 }, (_, i) => `<li><a href="#x${i}"><code>${names[i % 4]}.${members[i % 6]}</code></a></li>`).join(
      '\n',
    );
    assert.deepEqual(verdicts(detect('windows', healthyProse(200, 1) + '\n' + index).findings), []);
  });
  it('reports the opening script', () => assert.equal(detect('windows', healthyProse(300, 1)).figures.headScript, 1));
});
