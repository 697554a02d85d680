/** The learned verdict's features: every figure has a slot, in the same order for every text. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { Engine } from '../../src/core/engine.js';
import { FINDING_KINDS } from '../../src/core/detectors/registry.js';
import {
  distinctShare,
  FEATURE_NAMES,
  FIGURE_SLOT_NAMES,
  featuresOf,
  genericFigures,
  longestRepeat,
} from '../../src/core/verdictFeatures.js';
import { holdoutCorpus } from '../corpus/generate.js';

/** The dotted names featuresOf gives a figures object's numbers and flags (nulls and strings have none). */
function leafNames(v: unknown, path: string[], out: Set<string>): void {
  const name = path.join('.');
  if (typeof v === 'number' || typeof v === 'boolean') out.add(name);
  else if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'number')) for (let i = 0; i < v.length; i++) out.add(`${name}.${i}`);
    else {
      out.add(`${name}.count`);
      for (const item of v) for (const [k, x] of Object.entries(item as object)) if (typeof x === 'number') out.add(`${name}.${k}.min`);
    }
  } else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) leafNames(x, [...path, k], out);
}

function features(text: string): Float64Array {
  const e = new Engine(text.length);
  e.push(text);
  return featuresOf(e.figures(), analyzeText(text).findings, (a, b) => text.slice(a, b));
}

describe('verdict features', () => {
  it('names every slot once: the figures, a warn and a fail flag per finding kind, the generic figures', () => {
    assert.equal(new Set(FEATURE_NAMES).size, FEATURE_NAMES.length);
    for (const k of FINDING_KINDS) {
      assert.ok(FEATURE_NAMES.includes(`finding.${k}.warn`), k);
      assert.ok(FEATURE_NAMES.includes(`finding.${k}.fail`), k);
    }
    assert.ok(FIGURE_SLOT_NAMES.includes('detectors.repetition.tail.copies'));
    assert.ok(FIGURE_SLOT_NAMES.includes('detectors.repetition.recovered.present'));
    assert.ok(FIGURE_SLOT_NAMES.includes('detectors.language.fenced.present'));
    assert.ok(FEATURE_NAMES.includes('text.tailGzip'));
  });

  it('has a slot for every figure of every text of a corpus, null or not (a sometimes-absent figure keeps its slot)', () => {
    const slots = new Set(FIGURE_SLOT_NAMES);
    const texts = ['', 'ok', ...holdoutCorpus().map((s) => s.text)];
    for (const text of texts) {
      const e = new Engine(text.length);
      e.push(text);
      const names = new Set<string>();
      leafNames(e.figures(), [], names);
      for (const n of names) assert.ok(slots.has(n), `figure ${n} has no slot (text of ${text.length} chars)`);
      assert.equal(features(text).length, FEATURE_NAMES.length);
    }
  });

  it('gives finite values, the same for the same text, and flags the findings', () => {
    const loop = `A short opening line.\n${'the same words again and again '.repeat(200)}`;
    const a = features(loop);
    assert.deepEqual(a, features(loop));
    for (const [i, x] of a.entries()) assert.ok(Number.isFinite(x), `${FEATURE_NAMES[i]} is ${x}`);
    const fails = analyzeText(loop).findings.filter((f) => f.severity === 'fail');
    assert.ok(fails.length > 0);
    for (const f of fails) assert.equal(a[FEATURE_NAMES.indexOf(`finding.${f.kind}.fail`)], 1, f.kind);
  });

  it('reads offsets as a share of the text and absent ones as -1', () => {
    const text = `${'Opening prose with the words of a sentence. '.repeat(20)}${'loop loop '.repeat(300)}`;
    const f = features(text);
    const onset = f[FEATURE_NAMES.indexOf('detectors.repetition.tail.onset')]!;
    assert.ok(onset > 0.2 && onset < 0.3, `tail onset share ${onset}`);
    assert.equal(f[FEATURE_NAMES.indexOf('detectors.special_tokens.firstAt')], -1);
  });
});

describe('generic figures', () => {
  it('finds the longest repeated substring (copies may overlap)', () => {
    assert.equal(longestRepeat(''), 0);
    assert.equal(longestRepeat('abcd'), 0);
    assert.equal(longestRepeat('banana'), 3);
    assert.equal(longestRepeat('abcabcabc'), 6);
  });

  it('finds the same longest repeat as comparing every pair of starts', () => {
    // by definition: the longest common prefix of the suffixes at any two starts
    const slow = (s: string) => {
      let best = 0;
      for (let a = 0; a < s.length; a++)
        for (let b = a + 1; b < s.length; b++) {
          let k = 0;
          while (b + k < s.length && s[a + k] === s[b + k]) k++;
          if (k > best) best = k;
        }
      return best;
    };
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const texts = ['a'.repeat(1024), 'ab'.repeat(300), `${'x'.repeat(40)}y${'x'.repeat(41)}`];
    // records that grow by one char at a time, past the passes that ask for one more char
    let grow = '';
    for (let k = 1; k <= 30; k++) grow += `${'q'.repeat(k)}|${k % 10}`;
    texts.push(grow);
    for (let t = 0; t < 300; t++) {
      const letters = 1 + (next() % 4);
      let s = '';
      const n = next() % 300;
      while (s.length < n)
        s += next() % 5 === 0 && s.length > 8 ? s.slice(next() % s.length, s.length) : String.fromCharCode(97 + (next() % letters));
      texts.push(s.slice(0, Math.min(n, 1024)));
    }
    for (const s of texts) assert.equal(longestRepeat(s), slow(s), JSON.stringify(s.slice(0, 60)));
  });

  it('reads words as a split on \\s would, whatever the white space', () => {
    // the words' figures as split and regular expressions give them
    const slow = (tail: string) => {
      const words = tail.split(/\s+/).filter((w) => w.length > 0);
      const last = words.slice(-200);
      const mixed = words.filter((w) => /\p{L}/u.test(w) && /\d/.test(w)).length;
      return [distinctShare(last, 2), distinctShare(last, 3), distinctShare(last, 4), words.length === 0 ? 0 : mixed / words.length];
    };
    const spaces = [
      ' ',
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u200a',
      '\u200b',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
      '\u0085',
      '\u180e',
    ];
    // ASCII letters at both ends of the alphabet, and the chars either side of them, which are no letters
    const pieces = ['a1', 'é2', '\u{1d400}3', '١٢', 'x', 'y', '42', 'ab', '\ud835', '-', 'Z9', 'z', 'A', '@', '[', '`', '{', '_'];
    let seed = 11;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    for (let t = 0; t < 200; t++) {
      let tail = '';
      const n = next() % 600;
      while (tail.length < n) tail += next() % 2 === 0 ? spaces[next() % spaces.length] : pieces[next() % pieces.length];
      const g = genericFigures(tail, tail);
      assert.deepEqual([g[2], g[3], g[4], g[9]], slow(tail), JSON.stringify(tail.slice(0, 60)));
    }
  });

  it('reads the normalised repeat as three replaces and toLowerCase would give it', () => {
    const slow = (tail: string) => {
      const n = tail.slice(-1024).replace(/\s+/g, ' ').replace(/\d/g, '0').toLowerCase();
      return n.length === 0 ? 0 : longestRepeat(n) / n.length;
    };
    // U+0130 lowers to two chars, a final sigma to another letter than a sigma inside a word
    const pieces = [
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u3000',
      '\u0085',
      '\u200b',
      'A',
      'z',
      'ΟΔΟΣ',
      'Σ',
      'İ',
      'İİİ',
      'ß',
      '7',
      '٣',
      'É',
      'x1',
      '中文',
    ];
    let seed = 13;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const tails = ['İ'.repeat(1024), `${'İstanbul 12 '.repeat(100)}`];
    for (let t = 0; t < 200; t++) {
      let tail = '';
      const n = next() % 1400;
      while (tail.length < n) tail += pieces[next() % pieces.length];
      tails.push(tail);
    }
    for (const tail of tails) assert.equal(genericFigures(tail, tail)[6], slow(tail), JSON.stringify(tail.slice(0, 60)));
  });

  it('scores an answer whose tail lowers to more chars than it has (Turkish capitals)', () => {
    const text = 'İstanbul ve İzmir arasında uzun bir yolculuk yaptık. '.repeat(40);
    const score = analyzeText(text, { score: true }).score;
    assert.ok(score && Number.isFinite(score.probability));
    assert.equal(longestRepeat('ab'.repeat(1024)), 2046);
  });

  it('reads blank lines and the longest line as a split on line breaks would', () => {
    const slow = (text: string) => {
      const lines = text.split('\n');
      const blank = lines.filter((l) => /^[ \t\r]*$/.test(l)).length;
      return [text.length === 0 ? 0 : blank / lines.length, Math.log1p(Math.max(...lines.map((l) => l.length)))];
    };
    for (const text of ['', '\n', 'a', 'a\n', '\n\n b', ' \t\r\nx\u00a0\n\n', 'long line\r\n\r\nshort\n \n', 'x\n'.repeat(50)]) {
      const g = genericFigures(text, text);
      assert.deepEqual([g[7], g[8]], slow(text), JSON.stringify(text));
    }
  });

  it("reads a short text's tail gzip from the whole text's ratio exactly as it deflates it", () => {
    // a text no longer than the tail: the tail's deflate is the whole text's, read back from the analysis's ratio
    const texts = [
      '',
      'a',
      'Hello there. The answer is 42.',
      'again and again '.repeat(100),
      'Grüße aus Köln — 你好，世界 — 😀 emoji and ünïcödé.\n'.repeat(20),
      ...holdoutCorpus()
        .slice(0, 40)
        .map((s) => s.text.slice(0, 2048)),
    ];
    for (const text of texts) {
      const e = new Engine(text.length);
      e.push(text);
      const { ratio, exact } = e.figures().base.compression;
      assert.ok(exact);
      assert.deepEqual(genericFigures(text, text, ratio), genericFigures(text, text), JSON.stringify(text.slice(0, 40)));
    }
  });

  it('counts distinct n-grams over n-grams', () => {
    assert.equal(distinctShare(['a', 'b', 'a', 'b', 'a'], 2), 2 / 4);
    assert.equal(distinctShare(['a'], 2), 1);
  });

  it('reads a loop as repetitive and prose as not', () => {
    const prose = 'It was late when the train reached the coast, and the station was almost empty.\n\nWe walked on 2 roads.';
    const [, gzipProse, d2Prose] = genericFigures(prose, prose);
    const loop = 'again and again '.repeat(100);
    const [, gzipLoop, d2Loop, , , raw, norm, blank] = genericFigures(loop, loop);
    assert.ok(gzipLoop! < gzipProse!);
    assert.ok(d2Loop! < d2Prose!);
    assert.ok(raw! > 0.9 && norm! > 0.9);
    assert.equal(blank, 0);
    const mixed = genericFigures('a1 b2 c d', 'a1 b2 c d')[9];
    assert.equal(mixed, 0.5);
  });
});
