import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { createStreamAnalyzer, isCertainFail } from '../../src/core/streamAnalyzer.js';
import { tuningCorpus } from '../corpus/generate.js';
import { readTexts } from '../corpus/paths.js';
import { createRng as rng } from '../../src/prose/random.js';

/** Split at random UTF-16 offsets (also inside surrogate pairs and words), pieces of 0..maxLen chars. */
function randomSplit(text: string, rand: () => number, maxLen: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const n = Math.floor(rand() * (maxLen + 1));
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const healthy = readTexts('healthy');
const base = healthy.map((t) => t.text).join('\n\n');
const sentence = 'The leader sends heartbeats to every follower in the cluster. ';
const texts: Array<[string, string]> = [
  ...healthy.map((t): [string, string] => [t.name, t.text]),
  ['loop after 60%', base.slice(0, Math.floor(base.length * 0.6)) + sentence.repeat(40)],
  ['the the the', 'the '.repeat(700)],
  ['whitespace', ' \n'.repeat(500)],
  ['emoji and CJK', '这是一个测试。😀 Emoji 👍🏽 mixed with text and 漢字 and more: ' + '🎉'.repeat(300)],
  [
    'script switch',
    base.slice(0, 3000) +
      'Распределённые системы требуют согласия между узлами, и алгоритмы консенсуса решают эту задачу. '.repeat(3) +
      '分布式系统需要节点之间达成一致。'.repeat(40),
  ],
  ['tags', base.slice(0, 2000) + '</div>'.repeat(300)],
  ['glued', base.slice(0, 2000) + 'countryanimalelbowtigerbrazilnorwayshoulderkneegiraffe'.repeat(40)],
  ['lone surrogates', 'abc\ud800def\udc00 x \ud83d'],
  ['near loop', base.slice(0, 4000) + Array.from({ length: 50 }, (_, i) => `Item ${i}: the value is stored twice. `).join('')],
];

describe('createStreamAnalyzer', () => {
  it('final snapshot equals analyzeText on the whole text, for random delta splits', () => {
    const rand = rng(42);
    for (const [name, text] of texts) {
      const expected = analyzeText(text);
      for (const maxLen of [1, 3, 17, 200]) {
        const s = createStreamAnalyzer();
        for (const d of randomSplit(text, rand, maxLen)) s.push(d);
        assert.deepEqual(s.snapshot(), expected, `${name}, pieces up to ${maxLen} chars`);
      }
    }
  });

  it('snapshots in the middle of the stream do not change the final result', () => {
    const rand = rng(7);
    for (const [name, text] of texts) {
      const s = createStreamAnalyzer();
      for (const d of randomSplit(text, rand, 40)) {
        s.push(d);
        if (rand() < 0.2) s.snapshot();
      }
      assert.deepEqual(s.snapshot(), analyzeText(text), name);
    }
  });

  it('a mid-stream snapshot equals analyzeText of the prefix', () => {
    const rand = rng(9);
    const text = texts.find(([n]) => n === 'loop after 60%')![1];
    const s = createStreamAnalyzer();
    let sent = '';
    for (const d of randomSplit(text, rand, 25)) {
      s.push(d);
      sent += d;
      if (rand() < 0.02) assert.deepEqual(s.snapshot(), analyzeText(sent), `prefix of ${sent.length} chars`);
    }
  });

  it('countTokens reports the loop onset as a token index', () => {
    const head = base.slice(0, 5000);
    const s = createStreamAnalyzer({ countTokens: true });
    const pieces = randomSplit(head + sentence.repeat(30), rng(3), 6).filter((p) => p.length > 0);
    const offsets: number[] = [];
    let at = 0;
    for (const p of pieces) {
      offsets.push(at);
      at += p.length;
      s.push(p);
    }
    const a = s.snapshot();
    assert.deepEqual(a, analyzeText(head + sentence.repeat(30), { tokenOffsets: offsets }));
    const tok = Number(a.metrics['repeatOnsetToken']);
    assert.ok(tok > 0 && offsets[tok]! <= a.metrics.repeatOnset && (offsets[tok + 1] ?? Infinity) > a.metrics.repeatOnset);
  });

  it('random Unicode soup: no throw, same result for any split', () => {
    const rand = rng(1234);
    const pool = [
      'a',
      'b',
      'Z',
      ' ',
      '\n',
      '\t',
      '<',
      '>',
      '/',
      '!',
      '.',
      '7',
      'é',
      'Ã',
      '\u00a9',
      'ж',
      'λ',
      '中',
      'の',
      '한',
      '\u0301',
      '\ud83d\ude00',
      '\ud800',
      '\udc00',
      '\u0000',
      '\ufffd',
      '\u3000',
      'the ',
      '</div>',
    ];
    for (let k = 0; k < 20; k++) {
      let text = '';
      const n = Math.floor(rand() * 3000);
      for (let i = 0; i < n; i++) text += pool[Math.floor(rand() * pool.length)]!;
      const expected = analyzeText(text);
      const s = createStreamAnalyzer();
      for (const d of randomSplit(text, rand, 9)) s.push(d);
      assert.deepEqual(s.snapshot(), expected, `soup ${k}`);
    }
  });

  it('mid-stream snapshots of healthy texts never fail (so early abort never cuts a healthy stream)', () => {
    const samples = tuningCorpus()
      .filter((x) => x.label === 'healthy')
      .filter((_, i) => i % 4 === 0);
    let snapshots = 0;
    for (const sample of samples) {
      const a = createStreamAnalyzer();
      for (let i = 0; i < sample.text.length; i += 500) {
        a.push(sample.text.slice(i, i + 500));
        const snap = a.snapshot({ partial: true });
        snapshots++;
        assert.notEqual(snap.verdict, 'fail', `${sample.name} at ${i}: ${snap.reasons.join(' | ')}`);
        assert.equal(isCertainFail(snap), false);
      }
    }
    assert.ok(snapshots > 500, `${snapshots} snapshots`);
  });

  it('a snapshot while the stream runs leaves out the language switch; the final one judges it, as analyzeText does', () => {
    const en =
      'The garden needs water twice a week in summer, and the soil should be loosened before planting so that the roots can breathe and grow deep.';
    const de =
      'Außerdem ist es wichtig, regelmäßig das Unkraut zu entfernen, weil es den Pflanzen sonst das Wasser und die Nährstoffe wegnimmt, die sie brauchen.';
    const text = [
      en,
      en.replace('twice', 'three times'),
      en.replace('summer', 'spring'),
      de,
      de.replace('Pflanzen', 'Gemüsepflanzen'),
    ].join('\n\n');
    const a = createStreamAnalyzer();
    a.push(text);
    const kinds = (x: ReturnType<typeof analyzeText>) => x.findings.map((f) => f.kind);
    assert.deepEqual(kinds(a.snapshot({ partial: true })), []);
    assert.deepEqual(kinds(a.snapshot()), ['language_switch']);
    assert.deepEqual(a.snapshot(), analyzeText(text));
  });

  it('short deltas waiting to be tokenized: the length counts them and the live check sees them (Engine batches them)', () => {
    // a loop that becomes certain somewhere in the stream: fed a char at a time (each delta waits in the engine's batch)
    // and fed the same prefix at once, the live check agrees after every delta
    const text = base.slice(0, 1500) + sentence.repeat(12);
    const byChar = createStreamAnalyzer();
    let checked = 0;
    for (let i = 0; i < text.length; i++) {
      byChar.push(text[i]!);
      assert.equal(byChar.length, i + 1);
      if (i % 37 !== 0 && i !== text.length - 1) continue;
      const whole = createStreamAnalyzer();
      whole.push(text.slice(0, i + 1));
      assert.deepEqual(byChar.liveCheck(), whole.liveCheck(), `after ${i + 1} chars`);
      checked++;
    }
    assert.ok(checked > 50);
    assert.ok(byChar.certainCollapse() !== null, 'the loop is certain by the end');
  });

  it('most verbatim loops become a certain fail before the stream ends', () => {
    const loops = new Set(['word_loop', 'phrase_loop', 'sentence_loop', 'line_loop', 'paragraph_loop', 'punctuation_flood', 'tag_spam']);
    const samples = tuningCorpus()
      .filter((x) => x.label === 'degenerate' && loops.has(x.kind))
      .filter((_, i) => i % 2 === 0);
    let early = 0;
    for (const sample of samples) {
      const a = createStreamAnalyzer();
      for (let i = 0; i + 400 < sample.text.length; i += 400) {
        a.push(sample.text.slice(i, i + 400));
        if (isCertainFail(a.snapshot())) {
          early++;
          assert.ok(i + 400 > sample.onset, `${sample.name}: certain before the collapse began`);
          break;
        }
      }
    }
    assert.ok(early >= 0.7 * samples.length, `${early} of ${samples.length}`);
  });

  it('isCertainFail: true for a long verbatim loop running at the end, false for healthy text and a finished short loop', () => {
    assert.equal(isCertainFail(analyzeText(base.slice(0, 3000) + sentence.repeat(40))), true);
    assert.equal(isCertainFail(analyzeText(base)), false);
    assert.equal(isCertainFail(analyzeText(base.slice(0, 3000) + sentence.repeat(6) + base.slice(3000, 6000))), false);
  });
});
