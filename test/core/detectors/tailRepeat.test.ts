/**
 * The tail-repeat detector on its own: answers that end in a loop or a flood that runs to the
 * end of the output, of any size (texts written here in the shape of real collapses, none
 * copied from a corpus), next to healthy endings that repeat a little and must stay quiet;
 * then the token-limit evidence, certainty, where the loop starts, the window, and the
 * detector contract (any split gives the same figures, snapshots change nothing).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding } from '../../../src/core/finding.js';
import { createTailRepeatDetector, TAIL_WINDOW, type TailRepeatFigures } from '../../../src/core/detectors/tailRepeat.js';
import { runDetector } from '../../../src/core/detectors/runDetector.js';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds.js';
import { healthyProse } from '../../helpers/texts.js';

const INTRO =
  'To check whether the service is healthy, open the status page and look at the last deploy. ' +
  'If the error rate is above one percent, roll back and page the on-call engineer.\n\n';

const run = (text: string, finishReason: string | null = null) => runDetector(createTailRepeatDetector(), text, { finishReason });
const fails = (text: string, finishReason: string | null = null): Finding[] =>
  run(text, finishReason).findings.filter((f) => f.severity === 'fail');

interface Case {
  name: string;
  text: string;
  kind?: string;
}

describe('tail repeat: collapses that run to the end fail, whatever their size', () => {
  const collapses: Case[] = [
    {
      name: 'a whole answer that is one short sentence sixteen times (144 chars)',
      text: 'I think. '.repeat(16).trimEnd(),
      kind: 'sentence_loop',
    },
    { name: 'a normal sentence, then 40 exclamation marks', text: 'That is a great question' + '!'.repeat(40), kind: 'punctuation_flood' },
    { name: 'a digit flood of a hundred zeros at the end', text: INTRO + 'The clock lost about 0.' + '0'.repeat(100), kind: 'char_flood' },
    { name: 'a two-letter unit glued inside one word, 32 times', text: 'Of'.repeat(32), kind: 'char_flood' },
    { name: 'one letter 120 times', text: 'K'.repeat(120), kind: 'char_flood' },
    { name: 'a flood of pipes to the end', text: INTRO + '| a | b |\n|' + '|'.repeat(300), kind: 'punctuation_flood' },
    { name: 'a table border that never ends', text: INTRO + '| Step | Time |\n' + '|---'.repeat(200), kind: 'punctuation_flood' },
    { name: 'a short layout line repeated to the end', text: INTRO + '   +--------+\n' + '   |        |\n'.repeat(30), kind: 'line_loop' },
    { name: 'a line repeated to the end', text: INTRO + '- Read the logs first\n'.repeat(12), kind: 'line_loop' },
    { name: 'one word to the end', text: INTRO + 'The answer is bread ' + 'bread '.repeat(20), kind: 'word_loop' },
    { name: 'a phrase to the end', text: INTRO + 'and then it is a loop, ' + 'it is a loop, '.repeat(10), kind: 'phrase_loop' },
    {
      name: 'a line of two sentences repeated with blank lines between',
      text: INTRO + 'She waits. He waits.\n\n'.repeat(12),
      kind: 'line_loop',
    },
    {
      name: 'a two-line stanza five times',
      text: INTRO + 'The river runs to the sea,\nthe sea runs back to me.\n'.repeat(5),
      kind: 'paragraph_loop',
    },
    { name: 'a closing tag spammed', text: INTRO + '<div>ok' + '</div>'.repeat(20), kind: 'tag_spam' },
    { name: 'a special token spammed', text: INTRO + '<|im_end|>'.repeat(16), kind: 'tag_spam' },
    { name: 'a CJK word with no spaces', text: '好的，答案是：' + '牛肉面'.repeat(40), kind: 'word_loop' },
    { name: 'a replacement-char flood', text: INTRO + '\ufffd'.repeat(64), kind: 'char_flood' },
    { name: 'an emoji flood', text: INTRO + 'So funny ' + '\u{1F602}'.repeat(40), kind: 'punctuation_flood' },
    { name: 'a loop followed only by whitespace', text: INTRO + 'It works. '.repeat(10) + '\n\n   \n', kind: 'sentence_loop' },
  ];
  for (const c of collapses) {
    it(c.name, () => {
      const found = fails(c.text);
      assert.equal(found.length, 1, `no fail: ${JSON.stringify(run(c.text).figures)}`);
      if (c.kind) assert.equal(found[0]!.kind, c.kind, found[0]!.detail);
      assert.match(found[0]!.detail, /runs to the end of the output/);
      assert.doesNotMatch(found[0]!.detail, /token limit/);
    });
  }

  it('copies that differ only in spacing or line wrapping count as one loop', () => {
    const wrapped = Array.from({ length: 6 }, () => ' [PAD]'.repeat(14)).join('\n') + '\n' + ' [PAD]'.repeat(5);
    const found = fails(INTRO + wrapped);
    assert.equal(found.length, 1, JSON.stringify(run(INTRO + wrapped).figures));
    assert.equal(found[0]!.kind, 'tag_spam');
    assert.match(found[0]!.detail, /spacing aside/);
    assert.equal(found[0]!.atChar, INTRO.length + 1, 'starts at the first [PAD]');
  });

  it('a flood at the end of a unit that loops only thrice is still a flood', () => {
    const text = INTRO + ('What a day' + '!'.repeat(40) + '\n').repeat(3);
    const found = fails(text);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.kind, 'punctuation_flood');
    assert.equal(found[0]!.atChar, text.trimEnd().length - 40);
  });
});

describe('tail repeat: healthy endings that repeat a little stay quiet', () => {
  const healthy: Case[] = [
    { name: 'a few exclamation marks', text: INTRO + 'We did it!!!' },
    { name: 'an ellipsis', text: INTRO + 'And then the lights went out...' },
    { name: 'laughter', text: INTRO + 'He told the joke again, ha ha ha ha' },
    { name: 'a song that sings "na" eight times', text: INTRO + 'And the crowd sang na na na na na na na na' },
    { name: 'nested closing tags at the end of HTML', text: '<div><div><div><div><div><p>Hi</p></div></div></div></div></div>' },
    { name: 'closing parens of a Lisp form', text: '(define (f x)\n  (if (> x 0)\n      (g (h (k (m (n x))))))))))))' },
    { name: 'closing braces and brackets of JSON', text: '{"a":{"b":{"c":{"d":[[[1,2]]]}}}}' },
    {
      name: 'closing braces of nested callbacks',
      text: 'it("works", () => {\n  a(() => {\n    b(() => {\n      c(() => {\n        done();\n      })\n    })\n  })\n})',
    },
    { name: 'a horizontal rule under the last line', text: INTRO + 'Thanks for reading\n' + '-'.repeat(80) },
    { name: 'a rule of equals signs', text: INTRO + 'Summary\n' + '='.repeat(100) },
    { name: 'a table border row', text: INTRO + '| a | b | c | d | e | f | g | h | i | j |\n' + '|---'.repeat(10) + '|' },
    { name: 'a dotted leader', text: 'Contents\nChapter 1 ' + '.'.repeat(60) + ' 5' },
    {
      name: 'a chorus sung twice at the end',
      text: INTRO + 'Verse about the town.\n' + 'Oh the lights, oh the lights,\nthey shine all night.\n'.repeat(2),
    },
    {
      name: 'a table whose last rows look alike',
      text: '| Day | Task |\n|---|---|\n| Mon | Rest |\n' + '| Tue | Rest |\n'.repeat(1) + '| | |\n'.repeat(5),
    },
    {
      name: 'a row of the same cell across eight columns',
      text: '| Feature | A | B | C | D | E | F | G | H |\n|---|---|---|---|---|---|---|---|---|\n| Sync ' + '| Yes '.repeat(8) + '|',
    },
    { name: 'zeros inside a hex address', text: INTRO + 'The null address is 0x0000000000000000 and the text goes on.' },
    { name: 'zeros in a hex address at the very end', text: INTRO + 'The null address is 0x0000000000000000' },
    { name: 'a zero matrix', text: 'The result is\n' + '0 0 0 0 0 0\n'.repeat(6) },
    { name: 'a list whose last items are alike', text: INTRO + '1. Wash\n2. Rinse\n3. Repeat\n- TODO\n- TODO\n- TODO' },
    { name: 'a handful of emoji', text: INTRO + 'So funny ' + '\u{1F602}'.repeat(16) },
    { name: 'an empty text', text: '' },
    { name: 'only whitespace', text: '   \n\n\t  ' },
    { name: 'a whitespace flood (another detector owns it)', text: INTRO + ' '.repeat(500) },
  ];
  for (const c of healthy) {
    it(c.name, () => {
      const r = run(c.text);
      assert.deepEqual(r.findings, [], JSON.stringify(r.findings));
    });
  }
});

describe('tail repeat: an output cut by the token limit while looping', () => {
  const cutCases: Case[] = [
    { name: 'a phrase four times', text: INTRO + 'the best way is, ' + 'the best way is, '.repeat(3) },
    { name: 'eight exclamation marks', text: INTRO + 'Great' + '!'.repeat(8) },
    { name: 'a sentence four times', text: INTRO + 'We go on. '.repeat(4) },
  ];
  for (const c of cutCases) {
    it(`${c.name}: fails with finishReason 'length', not without`, () => {
      assert.deepEqual(fails(c.text), []);
      const found = fails(c.text, 'length');
      assert.equal(found.length, 1);
      assert.match(found[0]!.detail, /runs to the end of the output and the output was cut by the token limit/);
      assert.equal(found[0]!.certain, false);
    });
  }
  it('healthy text cut mid-word stays quiet', () => {
    assert.deepEqual(fails(INTRO + 'The next step is to configure the reverse pro', 'length'), []);
  });
  it('code cut six brackets deep stays quiet', () => {
    assert.deepEqual(fails('f(a, g(b, h(c, k(d, m(e, n(x))))))', 'length'), []);
    assert.deepEqual(fails('    })\n  })\n})\n})\n})\n})', 'length'), []);
  });
  it('a rule cut at the limit stays quiet', () => {
    assert.deepEqual(fails(INTRO + 'Notes\n' + '-'.repeat(30), 'length'), []);
  });
});

describe('tail repeat: certainty (the stream may be aborted) only for big ones', () => {
  it('sixteen short copies are a fail but not certain', () => {
    const f = fails('I think. '.repeat(16));
    assert.equal(f.length, 1);
    assert.equal(f[0]!.certain, false);
  });
  it('a long verbatim loop is certain', () => {
    const f = fails(INTRO + 'The model repeats this line. '.repeat(40));
    assert.equal(f[0]!.certain, true, f[0]!.detail);
  });
  it('a one-char flood of 256 chars is certain, of 100 it is not', () => {
    assert.equal(fails(INTRO + '0'.repeat(256))[0]!.certain, true);
    assert.equal(fails(INTRO + '0'.repeat(100))[0]!.certain, false);
  });
  it('a long table of zeros fails at the end but is not certain', () => {
    const f = fails('const table = [' + '0, '.repeat(300));
    assert.equal(f.length, 1);
    assert.equal(f[0]!.certain, false);
  });
  it('healthy texts streamed in 160-char pieces are never certain mid-stream', () => {
    const texts = [
      healthyProse(1500, 5),
      '| a | b |\n|---|---|\n' + '| 1 | 2 |\n'.repeat(40) + 'done',
      'x = [' + '0, '.repeat(120) + '1]\n' + INTRO,
      '#'.repeat(80) + '\n# Title\n' + '#'.repeat(80) + '\n' + INTRO,
    ];
    for (const text of texts) {
      const d = createTailRepeatDetector();
      for (let i = 0; i < text.length; i += 160) {
        d.push(text.slice(i, i + 160), i);
        const len = Math.min(text.length, i + 160);
        const view = { length: len, slice: (a: number, b: number) => text.slice(a, Math.min(b, len)) };
        const found = d.judge(d.figures(view), { thresholds: DEFAULT_THRESHOLDS, chars: len, finishReason: null });
        assert.ok(!found.some((f) => f.certain), `${text.slice(0, 30)} at ${i}: ${found[0]?.detail}`);
      }
    }
  });
});

describe('tail repeat: where the loop starts and how it is described', () => {
  it('a line loop starts at a line start', () => {
    const text = INTRO + 'Step one.\n' + 'Check the cable.\n'.repeat(10);
    const [f] = fails(text);
    assert.equal(f!.atChar, text.indexOf('Check the cable.'));
    assert.equal(f!.kind, 'line_loop');
  });
  it('a sentence loop starts at a sentence start', () => {
    const text = INTRO + 'Well. It is fine. ' + 'It is fine. '.repeat(9);
    const [f] = fails(text);
    assert.equal(f!.atChar, text.indexOf('It is fine.'));
  });
  it('a word loop starts at a word start', () => {
    const text = INTRO + 'I like milk ' + 'milk '.repeat(20);
    const [f] = fails(text);
    assert.equal(f!.atChar, text.indexOf('milk'));
    assert.match(f!.detail, /^unit "milk " \(5 chars\): 21 copies, 104 chars, runs to the end of the output$/);
  });
  it('a flood names its char, copies and chars', () => {
    const [f] = fails('Done' + '!'.repeat(50));
    assert.equal(f!.detail, '"!" repeated: 50 copies, 50 chars, runs to the end of the output');
    assert.equal(f!.atChar, 4);
  });
  it('a flood longer than the window is followed back to its start', () => {
    const text = INTRO + 'x = 1.' + '0'.repeat(3 * TAIL_WINDOW);
    const { figures, findings } = run(text);
    assert.equal(figures.tailLoopStart, INTRO.length + 6);
    assert.equal(figures.tailLoopChars, 3 * TAIL_WINDOW);
    assert.equal(figures.tailLoopCapped, 0);
    assert.equal(findings[0]!.atChar, INTRO.length + 6);
  });
  it('a sentence loop longer than the window is followed back to its start', () => {
    const unit = 'The service is up and the service is up. ';
    const text = INTRO + 'Status: ' + unit.repeat(600);
    const { figures } = run(text);
    assert.equal(figures.tailLoopStart, INTRO.length + 8);
    assert.equal(figures.tailLoopPeriod, unit.length);
  });
  it('a loop beyond the follow-back cap is reported as a lower bound', () => {
    const text = 'a' + 'Z'.repeat(200_000);
    const { figures, findings } = run(text);
    assert.equal(figures.tailLoopCapped, 1);
    assert.ok(figures.tailLoopChars < 200_000);
    assert.match(findings[0]!.detail, /at least/);
  });
});

describe('tail repeat: the detector contract', () => {
  const texts = [
    INTRO + 'The answer is bread ' + 'bread '.repeat(50),
    INTRO.repeat(40) + '!'.repeat(500),
    INTRO + 'She waits. He waits.\n\n'.repeat(300),
    healthyProse(3000, 9),
    'x'.repeat(20_000),
  ];
  const rng = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  it('any split into pushes gives the same figures, and snapshots mid-way change nothing', () => {
    for (const [t, text] of texts.entries()) {
      const whole = run(text).figures;
      const r = rng(t + 7);
      const d = createTailRepeatDetector();
      let at = 0;
      let snapshots = 0;
      while (at < text.length) {
        const len = 1 + Math.floor(r() * 700);
        d.push(text.slice(at, at + len), at);
        at = Math.min(text.length, at + len);
        if (r() < 0.3) {
          const upTo = at;
          const view = { length: upTo, slice: (a: number, b: number) => text.slice(a, Math.min(b, upTo)) };
          const once: TailRepeatFigures = d.figures(view);
          assert.deepEqual(d.figures(view), once, 'a snapshot changes nothing');
          snapshots++;
        }
      }
      const view = { length: text.length, slice: (a: number, b: number) => text.slice(a, b) };
      assert.deepEqual(d.figures(view), whole, `text ${t} after ${snapshots} snapshots`);
    }
  });
  it('figures of a text do not depend on what other texts were analysed before', () => {
    const a = run(texts[0]!).figures;
    run(texts[1]!);
    run(texts[2]!);
    assert.deepEqual(run(texts[0]!).figures, a);
  });
});
