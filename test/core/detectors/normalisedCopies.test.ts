import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { normalisedCopies } from '../../../src/core/detectors/repetition/normalisedCopies.js';
import {
  alternatingItems,
  csvTable,
  cutBlock,
  distinctList,
  nounList,
  poemWithChorus,
  proseBlockCopies,
  restatedPerson,
  storyWithRefrain,
  wordWrappedSentences,
  wrappedParagraph,
  wrappedSentences,
} from '../../helpers/copyShapes.js';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';
import { wrap } from '../../corpus/families.js';

const judged = (text: string, finishReason: string | null = null) => verdicts(detect('repetition', text, { finishReason }).findings);

/** Table rows of `[name, text, want, why]`: `want` a pattern the detector's findings match and a failed verdict, or 'ok'. */
function verdictRows(rows: ReadonlyArray<[name: string, text: string, want: RegExp | 'ok', why: string]>): void {
  for (const [name, text, want, why] of rows)
    it(`${name}: ${want === 'ok' ? 'ok' : want.source} (${why})`, () => {
      const v = judged(text).join(',');
      if (want === 'ok') {
        assert.ok(!v.includes('/fail'), v);
        assert.equal(analyzeText(text).verdict, 'ok');
      } else {
        assert.match(v, want);
        assert.equal(analyzeText(text).verdict, 'fail');
      }
    });
}

describe('normalisedCopies: copies at the end, whitespace, digits and case aside', () => {
  it('counts copies cut mid-word by a hard wrap as copies', () => {
    const c = normalisedCopies(wrappedSentences());
    assert.ok(c.copies > 2.1 && c.copies < 2.3, `copies ${c.copies}`);
    assert.ok(c.unitChars > 200, `unit ${c.unitChars}`);
    assert.ok(c.coverage > 0.95);
  });

  it('masks counters and folds case', () => {
    const c = normalisedCopies('Step 9: Check The Valve.\nstep 10: check the valve.\nSTEP 11: CHECK THE VALVE.');
    assert.equal(Math.round(c.copies), 3);
  });

  it('takes the shortest unit that covers the most, and reports where the copies start', () => {
    const text = `An opening line of its own. ${'ab cd '.repeat(20)}`;
    const c = normalisedCopies(text);
    assert.equal(c.unitChars, 4);
    assert.equal(text.slice(c.onset, c.onset + 5), 'ab cd');
  });

  it('finds no copies in text that does not repeat at its end', () => {
    assert.equal(normalisedCopies('Every sentence here is different from the one before it.').copies, 0);
    assert.equal(normalisedCopies('').copies, 0);
  });
});

describe('repetition: a large unit said 1.5-2.5 times, hidden by wrapping, counters or a cut (issue 36)', () => {
  const fails: Array<[string, string, RegExp]> = [
    ['two sentences x2.2, hard-wrapped at 90 chars at other places, words cut', wrappedSentences(), /^line_loop\/fail$/],
    ['two sentences x2.2, wrapped at spaces at other places', wordWrappedSentences(), /^line_loop\/fail$/],
    ['a two-line paragraph x2.6, hard-wrapped', wrappedParagraph(), /^paragraph_loop\/fail$/],
    ['a 24-row block and a second copy cut at 60%', cutBlock(), /_loop\/fail$/],
    ['1.6 copies of a 1 KB block of prose', proseBlockCopies(), /^paragraph_loop\/fail$/],
  ];
  for (const [name, text, want] of fails)
    it(`${name}: fails`, () => {
      assert.match(judged(text).join(','), want);
      assert.equal(analyzeText(text).verdict, 'fail');
    });

  it('two numbered items alternating while their counters rise fail', () => {
    assert.equal(analyzeText(alternatingItems()).verdict, 'fail');
  });

  it('one person restated four times with a growing list fails', () => {
    assert.equal(analyzeText(restatedPerson()).verdict, 'fail');
  });

  it('300 lines of "A <noun>." to the token limit fail as a list that runs away', () => {
    assert.match(judged(nounList(), 'length').join(','), /^list_runaway\/fail/);
    assert.equal(analyzeText(nounList(), { finishReason: 'length' }).verdict, 'fail');
    assert.equal(analyzeText(nounList()).verdict, 'fail');
  });

  const healthy: Array<[string, string]> = [
    ['a long story with a refrain', storyWithRefrain()],
    ['a numbered list of similar items with distinct content', distinctList()],
    ['a CSV table', csvTable()],
    ['a poem with a chorus', poemWithChorus()],
  ];
  for (const [name, text] of healthy)
    it(`${name}: ok`, () => {
      assert.deepEqual(judged(text), []);
      assert.equal(analyzeText(text).verdict, 'ok');
    });

  it('a CSV table said again and cut stays out of this rule (rows share a template by design)', () => {
    const rows = csvTable().split('\n').slice(0, 12).join('\n');
    const c = detect('repetition', `${rows}\n${rows.slice(0, Math.round(0.6 * rows.length))}`).figures.copies;
    assert.ok(c.table);
  });

  it('a table of 24 rows said again word for word and cut fails: its template comes round by design, a block of its rows as written does not', () => {
    const items = ['tent', 'stove', 'lantern', 'rope', 'compass', 'blanket', 'kettle', 'map', 'knife', 'torch', 'boots', 'gloves'];
    const more = ['scarf', 'canteen', 'matches', 'whistle', 'tarp', 'shovel', 'bucket', 'hammock', 'pillow', 'mirror', 'needle', 'thread'];
    const places = ['north shed', 'kitchen shelf', 'garage', 'attic box', 'hall closet', 'cellar', 'blue crate', 'car boot'];
    const notes = [
      'check the poles',
      'refill the gas',
      'new wick needed',
      'dry it first',
      'calibrate it',
      'wash before use',
      'descale it',
      'laminate it',
    ];
    const rows = [
      '| item | where | note |',
      '|---|---|---|',
      ...[...items, ...more].map((it, i) => `| ${it} | ${places[i % 8]} | ${notes[(i * 3) % 8]} |`),
    ].join('\n');
    const table = `Here is the packing table.\n\n${rows}`;
    assert.equal(analyzeText(table).verdict, 'ok');
    const text = `${table}\n${rows.slice(0, Math.round(0.6 * rows.length))}`;
    assert.ok(detect('repetition', text).figures.copies.table, 'the copies are rows of a table');
    assert.match(judged(text).join(','), /_loop\/fail$/);
  });

  it('rows of numbers in one template said again as a block and cut fail: with digits masked each row is the unit, the block is read on their numbers', () => {
    const rows = csvTable().split('\n').slice(1, 31).join('\n');
    const table = `Readings of the last month:\n\n${rows}`;
    assert.equal(analyzeText(table).verdict, 'ok');
    assert.equal(analyzeText(`Readings:\n\n${csvTable()}`).verdict, 'ok');
    const text = `${table}\n${rows.slice(0, Math.round(0.6 * rows.length))}`;
    const c = detect('repetition', text).figures.copies;
    assert.ok(c.table && c.exactCopies < 1.5, 'the unit is one row, said once as written');
    assert.ok(c.blockChars >= 500 && Math.abs(c.blockCopies - 1.6) < 0.05, `a block of ${c.blockChars} chars, ${c.blockCopies} copies`);
    assert.match(judged(text).join(','), /^paragraph_loop\/fail$/);
  });

  it('numbered items whose counters rise make no block: their numbers never come round', () => {
    const c = detect('repetition', alternatingItems()).figures.copies;
    assert.equal(c.blockChars, 0);
  });

  it('two sentences said twice after a long answer (under 60% of it) do not fail; said twice as most of it, or 2.3 times, they do', () => {
    const unit = proseBlockCopies().split('. ').slice(0, 2).join('. ');
    const twice = `${unit}.\n\n${unit}.`;
    assert.ok(!judged(`${healthyProse(1200, 3)}\n\n${twice}`).some((v) => v.endsWith('/fail')));
    assert.match(judged(`A short note first.\n\n${twice}`).join(','), /_loop\/fail$/);
    const more = `${twice}\n\n${unit.slice(0, Math.round(0.4 * unit.length))}`;
    assert.match(judged(`${healthyProse(1200, 3)}\n\n${more}`).join(','), /_loop\/fail$/);
  });

  it('a paragraph with asides in brackets said again and cut after a long answer fails (parentheses are prose)', () => {
    const para =
      'The first survey of the bay (in 1872, by a navy crew) found three channels deep enough for trade. Two of them (the northern ones) silted up within a decade, ' +
      'and the third (still used today) had to be dredged every spring. The harbour board (a body of six merchants) paid for the work from a levy on every cargo, ' +
      'which the shipowners (as one would expect) disliked but never managed to abolish. In the hard winter of 1891 (the coldest on record) the channel froze, ' +
      'and the board (for the first and only time) let the levy lapse until the ice broke up in March. The minutes of that meeting (kept in the town archive) ' +
      'record a single dissenting vote.';
    const text = `${healthyProse(1500, 5)}\n\n${para}\n\n${para.slice(0, Math.round(0.7 * para.length))}`;
    assert.match(judged(text).join(','), /paragraph_loop\/fail$/);
  });

  it('a paragraph of 100 words said again after a long answer fails whatever share of the output it covers', () => {
    const para = proseBlockCopies().split('\n\n')[0]!;
    const text = `${healthyProse(1200, 3)}\n\n${para}\n\n${para.slice(0, Math.round(0.55 * para.length))}`;
    assert.match(judged(text).join(','), /paragraph_loop\/fail$/);
    assert.equal(analyzeText(text).verdict, 'fail');
  });
});

describe('repetition: the whole output one unit said over and over, on the normalised chars (short outputs judged whole)', () => {
  const rows: Array<[name: string, text: string, want: RegExp | 'ok', why: string]> = [
    [
      'special tokens in a cycle',
      ' <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT>',
      /^phrase_loop\/fail$/,
      'markup hides the copies from the token reading; 3.3 copies are the whole output',
    ],
    [
      'a 30-char unit x3 cut mid-word',
      'The lamp is on in the hallway. The lamp is on in the hallway. The lamp is on in the hallway. The lamp is o',
      /_loop\/fail/,
      'two whole copies and a third begun',
    ],
    [
      'counters that rise on a unit said again',
      '1.北海 2.南海 3.北海 4.南海 5.北海 6.南海 7.北海 8.南海',
      /_loop\/fail/,
      'digits masked: two items alternating are one unit',
    ],
    [
      'dated prices, one a line',
      '2021-05-01,88.40\n2021-05-02,89.15\n2021-06-01,90.70\n2021-06-02,91.05\n2021-07-01,93.30\n2021-07-02,94.85',
      'ok',
      'rows of numbers are one unit once digits are masked: a unit of no letters is data',
    ],
    ['three roots', 'x = -3, x = 1, x = 5', 'ok', 'a unit said 2.25 times over 75% of the output: under what fails'],
    [
      'two provinces alternating while the counters rise',
      `${['奈良', '京都', '大阪', '兵庫', '滋賀', '三重'].map((p, i) => `${i + 1}.${p}`).join('\n')}\n${Array.from({ length: 14 }, (_, i) => `${i + 7}.${i % 2 ? '和歌山' : '徳島'}`).join('\n')}`,
      /^line_loop\/fail$/,
      '7 copies of two items once digits are masked: the token reading takes each number for a new item',
    ],
    [
      'an enumeration that goes round 1.7 times',
      'I am a language model, with no body, no memory, no wishes, no fears, no plans, no doubts, no habits, no secrets, no hobbies, no friends, no family, no address, no birthday, no memory, no wishes, no fears, no plans, no doubts, no habits, no secrets, no hobbies,',
      /sentence_loop/,
      '1.7 copies of a unit of 112 chars with no line break in it, 87% of the output: a cycle inside one run of text (lineUnitChars)',
    ],
    [
      'the same enumeration of six items going round (a known miss)',
      'I am a language model, with no body, no memory, no wishes, no fears, no plans, no doubts, no habits, no secrets, no memory, no wishes, no fears, no plans, no doubts,',
      'ok',
      '1.7 copies of a unit of 62 chars, under lineUnitChars (100 letters): a flag and its negation on two lines and a sentence that names a phrase at both ends are units of 40 to 75 letters said 1.5 to 1.8 times (the gettext catalogs, docs/detection.md)',
    ],
    [
      'an option and its negation, each on its line',
      '-mfast-math\t\tturn on fast floating-point arithmetic\n-mno-fast-math\t\tdo not turn on fast floating-point arithmetic\n',
      'ok',
      '1.6 copies of a unit of about 50 letters over most of the output: healthy help text',
    ],
    [
      'a sentence that names a long phrase at both ends',
      'The cache is written to the directory for temporary build files, but it is never read back from the directory for temporary build files',
      'ok',
      'a phrase of 30 letters said twice with 20 between: 1.5 copies of a unit of 50 letters',
    ],
    [
      'an enumeration in Chinese that goes round 1.7 times',
      '我只是一个程序，没有名字，没有家乡，没有朋友，没有梦想，没有记忆，没有计划，没有颜色，没有声音，没有味道，没有形状，没有年龄，没有方向，没有名字，没有家乡，没有朋友，没有梦想，没有记忆，没有计划，没有颜色，没有声音，',
      /sentence_loop/,
      '1.7 copies of a unit of 60 chars, 48 of them Han characters that write 2.5 letters each: 132 letters, past lineUnitChars',
    ],
    [
      'a chorus after one verse, the same A B A on lines',
      'Diner on the border with a neon sign,\nwaitress with a pencil and a tired line.\nOh, highway radio, play me something slow,\nplay me something old that everybody used to know.\nJukebox in the corner playing fifty-eight,\ntrucker in the booth says it is getting late.\nOh, highway radio, play me something slow,\nplay me something old that everybody used to know.',
      'ok',
      'a refrain is lines: a unit that holds a line break needs largeUnitChars (160), which 1.5 copies of chorus and verse do not reach',
    ],
    [
      'the same song written out as one paragraph (a known cost)',
      'Diner on the border with a neon sign, waitress with a pencil and a tired line. Oh, highway radio, play me something slow, play me something old that everybody used to know. Jukebox in the corner playing fifty-eight, trucker in the booth says it is getting late. Oh, highway radio, play me something slow, play me something old that everybody used to know.',
      /sentence_loop/,
      'with its line breaks gone the refrain is a cycle inside one run of text, as an enumeration that goes round is: no healthy reading of the corpora or the real files has this shape (docs/detection.md, "Short outputs")',
    ],
    [
      'a short answer that ends on its opening line',
      'Keep the dough warm and it will rise.\nFold it twice, rest it for an hour, then shape the loaf.\nKeep the dough warm and it will rise.',
      'ok',
      'a sentence said again with another between: no copies back to back',
    ],
    [
      'a self-introduction whose last short sentence is said three times more',
      '你好！我是一个人工智能助手，由一家科技公司开发。我可以帮助你。我可以帮助你。我可以帮助你。',
      /^sentence_loop\/fail$/,
      '3 copies of a unit of 7 chars, 50% of the output: endCopies over endCopiesCoverage',
    ],
    [
      'an English answer that ends on one sentence said three times',
      'Sure, here is what I found about the opening hours of the library. I can help you with that. I can help you with that. I can help you with that.',
      /_loop\/fail$/,
      '3 copies of a unit of 23 chars, 53% of the output',
    ],
    ['a laugh', 'Ha ha ha! That is a good one.', 'ok', 'a unit of 2 chars, under endUnitChars'],
    [
      'an answer that ends on an interjection said three times',
      'The build passed on every platform. Yes, yes, yes!',
      'ok',
      'a unit of 4 chars, under endUnitChars',
    ],
    ['a haiku', 'Cold rain on the roof\nthe kettle begins to sing\nnobody is home', 'ok', 'no unit repeats'],
    ['a one-word answer', 'Paris', 'ok', 'nothing repeats'],
  ];
  verdictRows(rows);
});

describe('repetition: copies wrapped at other places in each copy fail from 1.7 (rewrappedCopies)', () => {
  const opening =
    'Thanks for the question about the old mill on the river. It was built in 1794 by a family of millers from the valley, ' +
    'and it ground grain for the farms around it until the railway brought cheaper flour from the plains.\n\n' +
    'The building has three floors. The lowest held the gears and the pit of the wheel, the middle one the millstones and the ' +
    'hoppers, and the top one the sacks of grain that were hoisted up through trapdoors by a chain driven from the main shaft. ' +
    'A small house beside it was where the miller lived with his family and two apprentices.\n\n' +
    'After the mill closed in 1911 it stood empty for decades. A trust bought it in 1978, restored the wheel and the stones, ' +
    'and now opens it to visitors on the first Sunday of every month, when the volunteers grind a few sacks of wheat.\n\n';
  const unit =
    'The wheel turned on the current of the river, and the stones above it ground the grain of every farm in the valley. ' +
    'When the water ran low in the summer, the miller closed the sluice and waited for the autumn rains.';
  const refrain =
    'So sing of the river that carries us home,\nof the lanterns that burn on the quay,\nand the bells that will ring when the winter is gone.';
  const poem =
    'The nets are mended, the boats are in,\nthe gulls have left the bay,\nthe harbour lights come one by one\nto see the day away.\n\n' +
    `${refrain}\n\n` +
    'The frost is white upon the deck,\nthe tide is running slow,\nthe old men talk of summers past\nand where the herring go.\n\n' +
    `${refrain}\n\n${refrain}\n`;
  const letter =
    'Dear Ms. Okafor, thank you for your patience while we looked into the delay of your order.\n\n' +
    'The parcel left our warehouse on the 3rd but was held at the regional depot because of a missing customs form. ' +
    'We have sent the form and the courier expects to deliver it by Friday. We have also refunded the shipping charge.\n\n' +
    'Dear Ms. Okafor, thank you for your patience while we looked into the delay of your order.\n\nKind regards,\nThe support team';
  const readme =
    '# tidewatch\n\nA small command-line tool that prints the tide tables of a harbour.\n\n## Install\n\n' +
    '```sh\nnpm install --global tidewatch\ntidewatch --version\n```\n\n' +
    '## Usage\n\nRun `tidewatch <harbour>` to print the next four tides, or `tidewatch <harbour> --days 7` for a week.\n\n' +
    '## Upgrading\n\nThe tool upgrades the way it installs:\n\n' +
    '```sh\nnpm install --global tidewatch\ntidewatch --version\n```\n';
  const rows: Array<[name: string, text: string, want: RegExp | 'ok', why: string]> = [
    [
      'two sentences x2 after an opening, the first copy wrapped at 72 chars, the second at 90',
      `${opening}${wrap(unit, 72)}\n${wrap(unit, 90)}\n`,
      /^line_loop\/fail$/,
      '2 copies of a unit of 170+ chars, under exactCopies, but their breaks fall elsewhere in each copy',
    ],
    [
      'two sentences said 1.8 times as one run, wrapped at 64 chars',
      `${opening}${wrap(`${unit} ${unit.slice(0, Math.round(0.8 * unit.length))}`, 64)}\n`,
      /^line_loop\/fail$/,
      'the breaks of one width fall at other places in each copy',
    ],
    ['a poem whose refrain closes it said twice', poem, 'ok', 'the refrain keeps its line breaks: 2 copies, judged by exactCopies (2.3)'],
    ['a letter that repeats its opening line at the end', letter, 'ok', 'the line comes back after other text: no copies back to back'],
    ['a README with its install block twice', readme, 'ok', 'the block comes back under another section: no copies back to back'],
  ];
  verdictRows(rows);

  it('reads copies wrapped at other places as rewrapped, and a refrain written out twice as not', () => {
    const wrapped = normalisedCopies(`${opening}${wrap(unit, 72)}\n${wrap(unit, 90)}\n`);
    assert.ok(wrapped.rewrapped && wrapped.exactCopies >= 1.9 && wrapped.exactCopies < 2.3, JSON.stringify(wrapped));
    const sung = normalisedCopies(poem);
    assert.ok(!sung.rewrapped && sung.exactCopies >= 1.9 && sung.unitChars >= 60, JSON.stringify(sung));
    assert.ok(!normalisedCopies(`${unit}\n${unit}`).rewrapped);
  });
});
