import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { analyzeText } from '../../src/core/analyzeText.js';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds.js';
import { readTexts } from '../corpus/paths.js';

const healthy = readTexts('healthy');
const raft = healthy.find((t) => t.name === 'prose-raft')!.text;
const kitchen = healthy.find((t) => t.name === 'prose-kitchen')!.text;
const printing = healthy.find((t) => t.name === 'prose-printing')!.text;
const story = healthy.find((t) => t.name === 'prose-story')!.text;
/** A few thousand words of healthy prose: four articles. */
const longProse = raft + '\n\n' + kitchen + '\n\n' + printing + '\n\n' + story;
/** Two articles, then both again with a word swapped throughout: the second half replays the first (issue 36). */
const replayedProse =
  raft + '\n\n' + kitchen + '\n\n' + raft.replace(/Raft/g, 'the protocol') + '\n\n' + kitchen.replace(/dough/g, 'paste');

function collapseAt(text: string, share: number, unit: string, copies: number): string {
  return text.slice(0, Math.floor(text.length * share)) + unit.repeat(copies);
}

const sentence = 'The leader sends heartbeats to every follower in the cluster. ';

/** n picks from xs by a small deterministic PRNG (so the sequence does not loop). */
function picks(xs: string[], n: number, seed = 1): string[] {
  let a = seed;
  return Array.from({ length: n }, () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return xs[(a >>> 16) % xs.length]!;
  });
}

const cases: Array<{ name: string; text: string; verdict: 'ok' | 'warn' | 'fail'; kind?: string }> = [
  { name: 'healthy technical prose', text: raft, verdict: 'ok' },
  { name: 'healthy long prose (4 articles)', text: longProse, verdict: 'ok' },
  { name: 'healthy prose, short', text: kitchen.slice(0, 600), verdict: 'ok' },
  { name: 'two articles said again with a word swapped', text: replayedProse, verdict: 'fail', kind: 'cycling' },
  { name: 'sentence repeated 50x after 60%', text: collapseAt(longProse, 0.6, sentence, 50), verdict: 'fail', kind: 'sentence_loop' },
  { name: 'sentence repeated 20x at the end', text: longProse + sentence.repeat(20), verdict: 'fail', kind: 'sentence_loop' },
  { name: '"the the the"', text: 'the '.repeat(500), verdict: 'fail', kind: 'word_loop' },
  { name: 'prose then "the the the"', text: collapseAt(raft, 0.5, 'the ', 400), verdict: 'fail', kind: 'word_loop' },
  { name: 'whitespace only', text: ' \n\t '.repeat(400), verdict: 'fail', kind: 'empty' },
  { name: 'empty', text: '', verdict: 'fail', kind: 'empty' },
  { name: 'prose then whitespace flood', text: raft + ' '.repeat(2000), verdict: 'fail', kind: 'whitespace_flood' },
  { name: 'prose then newline flood', text: raft + '\n'.repeat(800), verdict: 'fail', kind: 'whitespace_flood' },
  { name: 'exclamation flood', text: raft + '!'.repeat(1500), verdict: 'fail', kind: 'punctuation_flood' },
  { name: 'fullwidth exclamation flood', text: raft + '！'.repeat(1500), verdict: 'fail', kind: 'punctuation_flood' },
  { name: 'closing-tag spam', text: raft + '</div>'.repeat(400), verdict: 'fail', kind: 'tag_spam' },
  { name: 'line loop', text: raft + '\n' + '- check the follower state\n'.repeat(80), verdict: 'fail', kind: 'line_loop' },
  { name: 'paragraph loop', text: raft + ('\n\n' + kitchen.slice(0, 700)).repeat(6), verdict: 'fail', kind: 'paragraph_loop' },
  { name: 'phrase loop', text: raft + 'and then the next one '.repeat(120), verdict: 'fail', kind: 'phrase_loop' },
  {
    name: 'word salad (nouns, no sentence structure)',
    text:
      raft +
      picks(['Brazil', 'otter', 'elbow', 'kettle', 'Norway', 'walnut', 'tiger', 'knee', 'lamp', 'Peru', 'heron', 'spine'], 400).join(' '),
    verdict: 'fail',
    kind: 'word_salad',
  },
  {
    name: 'glued words',
    text: raft + picks(['country', 'animal', 'elbow', 'tiger', 'brazil', 'norway', 'shoulder', 'giraffe', 'kettle'], 200).join(''),
    verdict: 'fail',
    kind: 'gibberish',
  },
  {
    name: 'gibberish (consonant soup)',
    text: raft + picks('xkq zvbn qwrtp sdfgh klmn jhgf bvcx trwq mnbv'.split(' '), 300).join(' '),
    verdict: 'fail',
    kind: 'gibberish|word_salad',
  },
  {
    name: 'gibberish (mojibake)',
    text:
      raft +
      Buffer.from('Le café était fermé, mais la crème brûlée restait délicieuse à côté de la forêt. '.repeat(1), 'utf8')
        .toString('latin1')
        .repeat(1) +
      Array.from({ length: 30 }, (_, i) => Buffer.from(`Ça coûte très cher ${i}, déjà élevé à côté. `, 'utf8').toString('latin1')).join(''),
    verdict: 'fail',
    kind: 'gibberish',
  },
  {
    name: 'script switch to Chinese',
    text:
      raft +
      picks(
        [
          '我们继续讨论这个系统的结构。',
          '每个节点都保存一份日志副本。',
          '如果领导者停止发送消息，就会开始新的选举。',
          '日志在发送确认之前会先写入磁盘。',
        ],
        40,
      ).join(''),
    verdict: 'fail',
    kind: 'script_switch',
  },
  {
    name: 'stutter',
    text:
      raft +
      kitchen
        .split(' ')
        .map((w, i) => (i % 3 === 0 ? `${w} ${w} ${w}` : i % 5 === 0 ? `${w} ${w}` : w))
        .join(' '),
    verdict: 'fail',
    kind: 'stutter',
  },
  {
    name: 'near loop (a word swapped in every copy)',
    text:
      raft +
      Array.from(
        { length: 40 },
        (_, i) => `The follower stores the ${['new', 'next', 'last', 'first', 'same'][i % 5]} entry and answers the leader. `,
      ).join(''),
    verdict: 'fail',
  },
  {
    name: 'loop covering only the last 5% (~1 KB)',
    text: longProse + 'Each follower checks the term before it votes. '.repeat(Math.ceil((longProse.length * 0.05) / 47)),
    verdict: 'fail',
    kind: 'sentence_loop',
  },
  {
    name: 'Chinese prose then a Chinese sentence loop',
    text: healthy.find((t) => t.name === 'prose-chinese')!.text + '我们每天晚上都去河边跑步。'.repeat(60),
    verdict: 'fail',
    kind: 'sentence_loop',
  },
  {
    name: 'Russian word salad',
    text:
      healthy.find((t) => t.name === 'prose-german')!.text +
      picks('кошка окно стол Москва рука река собака лампа нога город книга дерево'.split(' '), 300).join(' '),
    verdict: 'fail',
    kind: 'word_salad',
  },
  {
    name: 'near loop (number counting up)',
    text:
      raft +
      Array.from({ length: 60 }, (_, i) => `Step ${i + 1}: the leader sends a heartbeat to every follower and waits for the answer. `).join(
        '',
      ),
    verdict: 'fail',
  },
];

describe('analyzeText verdicts', () => {
  for (const c of cases) {
    it(`${c.name} → ${c.verdict}${c.kind ? ` (${c.kind})` : ''}`, () => {
      const a = analyzeText(c.text);
      assert.equal(a.verdict, c.verdict, `reasons: ${JSON.stringify(a.reasons)}`);
      if (c.verdict === 'ok') assert.deepEqual(a.reasons, []);
      if (c.kind)
        assert.ok(
          c.kind.split('|').some((k) => a.reasons.some((r) => r.startsWith(k + ':'))),
          `expected a ${c.kind} reason, got ${JSON.stringify(a.reasons)}`,
        );
      for (const r of a.reasons) assert.match(r, /^[a-z_]+: \S/);
    });
  }
});

describe('analyzeText on healthy texts that repeat by nature', () => {
  for (const t of healthy) {
    it(`${t.name} → ok`, () => {
      const a = analyzeText(t.text);
      assert.equal(a.verdict, 'ok', a.reasons.join(' | '));
    });
  }
  it('source code with many similar statements → ok', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `  assert.equal(square(${i}), ${i * i});`).join('\n');
    assert.equal(analyzeText(`describe('square', () => {\n${lines}\n});\n`).verdict, 'ok');
  });
  it('a markdown table with many similar rows → ok', () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) => `| node-${i} | ${['ready', 'ready', 'draining'][i % 3]} | ${(i * 7) % 64} | ${(i * 13) % 100}% |`,
    ).join('\n');
    assert.equal(analyzeText(`| Node | State | Pods | CPU |\n|---|---|---|---|\n${rows}\n`).verdict, 'ok');
  });
});

describe('analyzeText metrics', () => {
  it('counts chars, bytes and words', () => {
    const a = analyzeText('héllo wörld, 你好');
    assert.equal(a.metrics.chars, 15);
    assert.equal(a.metrics.bytes, Buffer.byteLength('héllo wörld, 你好'));
    assert.equal(a.metrics.words, 4); // héllo, wörld, 你, 好
  });

  it('gzip ratio equals gzip level 6 / UTF-8 bytes for a text under 32 K chars', () => {
    const bytes = Buffer.byteLength(raft);
    const expected = gzipSync(raft, { level: 6 }).length / bytes;
    assert.ok(Math.abs(analyzeText(raft).metrics.compressionRatio - expected) < 1e-4);
  });

  it('gzip ratio of a long text stays within 3% of a one-shot gzip', () => {
    const expected = gzipSync(longProse.repeat(3), { level: 6 }).length / Buffer.byteLength(longProse.repeat(3));
    const got = analyzeText(longProse.repeat(3)).metrics.compressionRatio;
    assert.ok(Math.abs(got - expected) / expected < 0.03, `${got} vs ${expected}`);
  });

  it('reports the longest word run and the most repeated line', () => {
    const a = analyzeText('a b b b c\nsame line\nother\nsame line\n  same line  \n');
    assert.equal(a.metrics.longestWordRun, 3);
    assert.equal(a.metrics.longestWordRunWord, 'b');
    assert.equal(a.metrics.topLineRepeats, 3);
    assert.equal(a.metrics.topLine, 'same line');
  });

  it('unique-word ratio', () => {
    assert.equal(analyzeText('one two two three three three').metrics.uniqueWordRatio, 0.5);
    assert.equal(analyzeText('').metrics.uniqueWordRatio, 1);
  });

  it('locates a late loop: onset, period, count, coverage, excerpt', () => {
    const head = raft;
    const text = head + sentence.repeat(30);
    const m = analyzeText(text).metrics;
    assert.ok(Math.abs(m.repeatOnset - head.length) <= sentence.length, `onset ${m.repeatOnset}, expected about ${head.length}`);
    assert.equal(m.repeatPeriod, sentence.length);
    assert.ok(m.repeatCount >= 29 && m.repeatCount <= 31, `count ${m.repeatCount}`);
    const expectedCoverage = (sentence.length * 30) / text.length;
    assert.ok(Math.abs(m.repeatCoverage - expectedCoverage) < 0.03, `coverage ${m.repeatCoverage} vs ${expectedCoverage}`);
    assert.ok(sentence.includes(String(m.repeatExcerpt).trim().slice(0, 20)), `excerpt ${m.repeatExcerpt}`);
  });

  it('finds a paragraph-sized period (2 KB unit)', () => {
    const unit = '\n\n' + kitchen.slice(0, 2100);
    const m = analyzeText(raft + unit.repeat(4)).metrics;
    assert.ok(Math.abs(m.repeatPeriod - unit.length) < 20, `period ${m.repeatPeriod}`);
    assert.ok(m.repeatCount >= 3);
  });

  it('thresholds can be overridden per call', () => {
    const text = raft + sentence.repeat(6);
    assert.equal(analyzeText(text).verdict, 'fail');
    assert.notEqual(
      analyzeText(text, {
        thresholds: { tailLoopCopies: 100, longLoopCopies: 100, normalisedLoopCopies: 100, returnsCopies: 1000, recoveredCopies: 1000 },
      }).verdict,
      'fail',
    );
  });

  it('every metric is a number or a string and every threshold key has a numeric default', () => {
    const a = analyzeText(longProse);
    for (const [k, v] of Object.entries(a.metrics)) assert.ok(typeof v === 'number' || typeof v === 'string', k);
    for (const [k, v] of Object.entries(DEFAULT_THRESHOLDS)) assert.equal(typeof v, 'number', k);
  });

  it('reports the onset as a token index when token offsets are given', () => {
    const text = raft + sentence.repeat(30);
    const offsets: number[] = [];
    for (let i = 0; i < text.length; i += 4) offsets.push(i);
    const m = analyzeText(text, { tokenOffsets: offsets }).metrics;
    assert.equal(m['repeatOnsetToken'], Math.floor(m.repeatOnset / 4));
  });
});
