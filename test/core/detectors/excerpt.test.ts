import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { excerptOf } from '../../../src/core/detectors/finding.js';

/** What excerptOf gives, as the regular expression it replaced wrote it. */
function flattened(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

describe('excerptOf', () => {
  // rows of [text, max, excerpt, why]
  const rows: Array<[string, number, string, string]> = [
    ['', 10, '', 'empty'],
    ['a b c', 10, 'a b c', 'lone spaces stay'],
    ['a \n\t b', 10, 'a b', 'a run of whitespace is one space'],
    ['line one\nline two', 40, 'line one line two', 'a line break is a space'],
    ['\u00a0lead and trail\u3000', 40, ' lead and trail ', 'Unicode spaces at both ends'],
    ['a\u200bb', 10, 'a\u200bb', 'a zero-width space is no whitespace to JavaScript'],
    ['0123456789abc', 10, '012345678…', 'cut to max chars with an ellipsis'],
    ['0123456789', 10, '0123456789', 'exactly max chars: not cut'],
    ['01234   56789  ', 10, '01234 567…', 'cut after flattening'],
  ];
  for (const [text, max, want, why] of rows) it(why, () => assert.equal(excerptOf(text, max), want));

  it('gives what flattening every run of \\s and cutting gives, on random texts', () => {
    const pool = ['a', 'b', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', 'é', '😀', '\u180e'];
    let seed = 11;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let k = 0; k < 20_000; k++) {
      let s = '';
      for (let i = Math.floor(rnd() * 60); i > 0; i--) s += pool[Math.floor(rnd() * pool.length)];
      const max = 1 + Math.floor(rnd() * 50);
      assert.equal(excerptOf(s, max), flattened(s, max), JSON.stringify(s));
    }
  });
});
