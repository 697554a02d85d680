/**
 * The prose splitter of language_switch: what is prose, where a paragraph ends, what is a title.
 * One row per shape of line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cjkCount, letterCount } from '../../../src/core/detectors/languageId/charClasses.js';
import {
  blockParagraphs,
  eachParagraphUnit,
  ParagraphCache,
  type ProseParagraph,
  paragraphUnits,
  proseParagraphs,
  UNIT_CHARS,
  walkParagraphs,
} from '../../../src/core/detectors/languageId/proseUnits.js';
import { roughLanguage } from '../../../src/core/detectors/languageId/roughLanguage.js';
import { lineBlocks } from '../../../src/core/detectors/languageId/lineBlocks.js';

const texts = (s: string) => proseParagraphs(s).map((p) => p.text);

describe('proseParagraphs', () => {
  const ROWS: Array<[string, string, string[]]> = [
    [
      'paragraphs split at blank lines, lines joined',
      'One line\nand the next.\n\nA second one.',
      ['One line and the next.', 'A second one.'],
    ],
    [
      'a fenced block is left out',
      'Before it.\n```js\nconst a = b(c);\nPlain words in a fence\n```\nAfter it.',
      ['Before it.', 'After it.'],
    ],
    ['an indented line is code', 'Text here.\n    return value;\nMore text.', ['Text here.', 'More text.']],
    ['a table row is data', 'Intro words.\n| a | b |\nname | value | unit\nOutro words.', ['Intro words.', 'Outro words.']],
    ['a row of CSV is data', 'Intro words.\nBill 4,12,Pizza,Wine,Card\nMore words, and more.', ['Intro words.', 'More words, and more.']],
    ['Chinese prose with ASCII commas is prose', '我们先读数据,然后再检查结果,最后写报告。', ['我们先读数据,然后再检查结果,最后写报告。']],
    ['a markup line is left out', 'Words.\n<div class="x">inside</div>\nMore words.', ['Words.', 'More words.']],
    ['a line of digits and symbols is left out', 'Words.\n12.5 + 3 = 15.5 (42%)\nMore words.', ['Words.', 'More words.']],
    ['a line of code words is left out', 'Words.\nfoo_bar = baz.qux(x) :: y\nMore words.', ['Words.', 'More words.']],
    ['URLs and inline code read as a space', 'See https://example.com/a_b?c=d and `x_y = 1` here.', ['See   and   here.']],
    [
      'a URL inside inline code goes with it',
      'Run `curl https://example.com/x_y --silent` to fetch the words here.',
      ['Run   to fetch the words here.'],
    ],
    [
      'backticks inside a URL go with the URL, a lone one stays',
      'Open https://example.com/`a_b`c and read ` the words here.',
      ['Open   and read ` the words here.'],
    ],
    // read without the space, foo.barbaz would be a code word (a dotted call) and the line code
    ['what is taken out reads as a space between the words on either side', 'see foo.`x`barbaz now', ['see foo. barbaz now']],
    [
      'a list item starts a paragraph of its own',
      'Items:\n- first one\n2. second one\n[3] third one',
      ['Items:', '- first one', '2. second one', '[3] third one'],
    ],
    [
      'comment lines of unfenced code are left out: a shebang, # lines in a block of several lines, // lines',
      'Words.\n\n#!/usr/bin/env bash\n# rotate the dumps and copy them off the host\n\n# keep only the newest dumps of this database\nmapfile -t old < list\n\n// read the settings before anything else\n\nMore words.',
      ['Words.', 'mapfile -t old < list', 'More words.'],
    ],
    [
      'a heading alone on its line is prose (a title)',
      'Words.\n\n# Getting started\n\nMore words.',
      ['Words.', '# Getting started', 'More words.'],
    ],
    [
      'non-Latin letters count as letters',
      'Привет, как дела сегодня?\n\n你好，今天怎么样？',
      ['Привет, как дела сегодня?', '你好，今天怎么样？'],
    ],
  ];
  for (const [name, text, want] of ROWS) it(name, () => assert.deepEqual(texts(text), want));

  it('reads each URL, then each inline code of what is left, as one space, however they mix on a line', () => {
    const url = /(?<![A-Za-z0-9_])(?:https:\/\/|http:\/\/|www\.)(?=\S)\S*/g;
    const reference = (line: string) => line.replace(url, ' ').replace(/`[^`\n]*`/g, ' ');
    const bits = ['https://a.example/x`y', '`code_x`', 'www.example.org/p', '`', 'http://b.example/`q`', 'http', '``'];
    const words = 'the words of a sentence that reads as prose here and there';
    let lines = 0;
    for (let a = 0; a < bits.length; a++)
      for (let b = 0; b < bits.length; b++)
        for (const join of [' ', '']) {
          const line = `${words} ${bits[a]}${join}${bits[b]} ${words} ${bits[b]} end`;
          const [p] = proseParagraphs(line);
          if (p === undefined) continue;
          assert.equal(p.text, reference(line), line);
          lines++;
        }
    assert.ok(lines > 80, `${lines} lines read as prose`);
  });

  it("carries each paragraph's letters as counted when its lines were judged, and a whole-paragraph unit's", () => {
    const all = `${ROWS.map((r) => r[1]).join('\n\n')}\n\nTwo lines \u{1d400}\u{1d401} with a letter\nbeyond the BMP and *stars* here.`;
    for (const p of proseParagraphs(all)) {
      assert.equal(p.letters, letterCount(p.text), p.text);
      for (const u of paragraphUnits(p)) if (u.letters !== undefined) assert.equal(u.letters, letterCount(u.text), u.text);
    }
  });

  it('a short line alone that does not end as a sentence is a title', () => {
    const p = proseParagraphs('Getting started\n\nFirst, install it.\n\nA line that ends as a sentence.\n\nTwo lines\nof text');
    assert.deepEqual(
      p.map((x) => x.title),
      [true, false, false, false],
    );
  });

  it('cuts a long paragraph into units of about UNIT_CHARS at spaces, at most `max`', () => {
    const text = Array.from({ length: 60 }, (_, k) => `word${k} and more`).join(' ');
    const [p] = proseParagraphs(text);
    const units = paragraphUnits(p!);
    assert.ok(units.length > 3);
    for (const u of units) assert.ok(u.text.length <= UNIT_CHARS, `${u.text.length} chars`);
    assert.equal(units.map((u) => u.text).join(' '), text);
    assert.equal(paragraphUnits(p!, 2).length, 2);
  });

  it('gives the units one at a time from either end as paragraphUnits cuts them, a piece of only spaces being none', () => {
    const long = Array.from({ length: 60 }, (_, k) => `word${k} and more`).join(' ');
    // a piece of spaces only (what is left of a run of inline code): no unit, wherever the walk starts
    const gap = `${'a few words '.repeat(12)}${' '.repeat(2 * UNIT_CHARS)}${'and after the gap '.repeat(12)}`;
    for (const text of [long, gap, 'One short sentence.', '']) {
      const p: ProseParagraph = { start: 7, text, letters: letterCount(text), lines: 1, title: false };
      const want = paragraphUnits(p);
      const fwd: unknown[] = [];
      const back: unknown[] = [];
      assert.equal(
        eachParagraphUnit(p, 1, (u) => fwd.push(u) > 0),
        true,
      );
      assert.equal(
        eachParagraphUnit(p, -1, (u) => back.push(u) > 0),
        true,
      );
      assert.deepEqual(fwd, want);
      assert.deepEqual(back.reverse(), want);
    }
    const p: ProseParagraph = { start: 0, text: gap, letters: letterCount(gap), lines: 1, title: false };
    assert.ok(paragraphUnits(p).length < Math.ceil(gap.length / UNIT_CHARS), 'the gap is no unit');
    // a walk that stops reads no further
    const last: unknown[] = [];
    assert.equal(
      eachParagraphUnit(p, -1, (u) => last.push(u) < 1),
      false,
    );
    assert.deepEqual(last, paragraphUnits(p).slice(-1));
  });

  it('counts letters as \\p{L} code points (astral ones once)', () => {
    assert.equal(letterCount('ab 12 Ça 你好 𝐀!'), 7);
  });

  it('counts CJK chars from its tables as the regular expression of the four scripts does, code point by code point', () => {
    const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
    const regex = (s: string) => s.match(CJK)?.length ?? 0;
    // every code point of the BMP and of the planes with Han (2 and 3) and kana (1), one string per block of 256
    for (const from of [0, 0x10000, 0x1b000, 0x20000, 0x2a000, 0x30000]) {
      for (let block = from; block < from + 0x10000; block += 256) {
        let s = '';
        for (let cp = block; cp < block + 256; cp++) if (cp < 0xd800 || cp > 0xdfff) s += String.fromCodePoint(cp);
        assert.equal(cjkCount(s), regex(s), `block U+${block.toString(16)}`);
      }
    }
    // a lone surrogate is no char of a script; a pair is one
    for (const s of ['\ud840', '\ud840x\udc00', '\ud840\udc00', '한국어 カタカナ ひらがな 漢字 abc'])
      assert.equal(cjkCount(s), regex(s), JSON.stringify(s));
  });
});

describe('lineBlocks', () => {
  it('tells every kind of line start apart: fences, blanks of any space, tabs, indentation, list markers, backticks', () => {
    const text = [
      'Intro line',
      '  ~~~',
      'inside ~~~ fence',
      '~~~',
      '\u3000\u3000Ideographic spaces open this line',
      '\u00a0',
      '\tTabbed code',
      '    indented code',
      '   - item one',
      'more of it',
      '2) second',
      '`not a fence` here',
      '``',
      'r\u00e9sum\u00e9 title\r',
      '\r',
      'last line.',
    ].join('\n');
    const got = lineBlocks(text).map((b) => [text.slice(b.from, b.to), b.titleLike]);
    assert.deepEqual(got, [
      ['Intro line', true],
      ['\u3000\u3000Ideographic spaces open this line', true],
      ['   - item one\nmore of it', false],
      ['2) second\n`not a fence` here\n``\nr\u00e9sum\u00e9 title\r', false],
      ['last line.', false],
    ]);
  });
});

describe('walkParagraphs and ParagraphCache', () => {
  // blocks of several paragraphs split by lines that are no prose (a table row, a markup line, a # comment among others)
  const TEXT = [
    'A first paragraph\nover two lines.\n| a | b |\nA second one, after a table row.\n<div>markup</div>\nA third one.',
    'Title alone',
    '# a comment\nmapfile -t old < list\nWords after the code line.',
    'The last paragraph,\nwhich also runs\nover three lines.',
  ].join('\n\n');
  const blocks = lineBlocks(TEXT);

  it('gives blockParagraphs from the start and in reverse from the end, and all of them once every line is read', () => {
    assert.equal(blocks.length, 4);
    for (const b of blocks) {
      const whole = blockParagraphs(TEXT, b);
      const fwd: ProseParagraph[] = [];
      const back: ProseParagraph[] = [];
      assert.deepEqual(
        walkParagraphs(TEXT, b, 1, (p) => fwd.push(p) > 0),
        { stopped: false, all: whole },
      );
      assert.deepEqual(
        walkParagraphs(TEXT, b, -1, (p) => back.push(p) > 0),
        { stopped: false, all: whole },
      );
      assert.deepEqual(fwd, whole);
      assert.deepEqual(back.reverse(), whole);
    }
  });

  it('stops where take says, and keeps a block only when it was read whole', () => {
    const first = blocks[0]!;
    let seen = 0;
    const r = walkParagraphs(TEXT, first, -1, () => ++seen < 1);
    assert.deepEqual([seen, r.stopped, r.all], [1, true, null]);
    const cache = new ParagraphCache(TEXT, blocks);
    const got: string[] = [];
    assert.equal(
      cache.walk(0, 1, (p) => got.push(p.text) < 1),
      false,
    );
    assert.deepEqual(got, ['A first paragraph over two lines.']);
    // the last paragraph stops the walk, but every line was read: kept, and given from the cache
    assert.equal(
      cache.walk(3, -1, () => false),
      false,
    );
    const again: string[] = [];
    assert.equal(
      cache.walk(3, 1, (p) => again.push(p.text) > 0),
      true,
    );
    assert.deepEqual(again, ['The last paragraph, which also runs over three lines.']);
    assert.deepEqual(cache.of(0), blockParagraphs(TEXT, first));
  });

  it("gives a paragraph's first unit early, as soon as its lines fix it, and reads no later line when told to stop", () => {
    // lines of about 80 chars: the first unit (UNIT_CHARS) is fixed on the third line; the fifth is a markup line
    const line = (k: number) => `Line ${k} of a long paragraph that wraps its words the way a mail client would do.`;
    const lines = [1, 2, 3, 4].map(line);
    const text = `${lines.join('\n')}\n<div>markup</div>\nAfter it.\n\nThe next block.`;
    const [b] = lineBlocks(text);
    const whole = blockParagraphs(text, b!);
    const want = paragraphUnits(whole[0]!)[0]!;
    const early: unknown[] = [];
    const r = walkParagraphs(
      text,
      b!,
      1,
      () => true,
      (u) => early.push(u) < 1,
    );
    assert.deepEqual(early, [{ start: want.start, text: want.text }]);
    assert.deepEqual(r, { stopped: true, all: null });
    // told to go on, the walk reads on and gives every paragraph whole, as without `early`
    const taken: ProseParagraph[] = [];
    const on = walkParagraphs(
      text,
      b!,
      1,
      (p) => taken.push(p) > 0,
      () => true,
    );
    assert.deepEqual(on, { stopped: false, all: whole });
    assert.deepEqual(taken, whole);
    // a paragraph that ends within UNIT_CHARS, or whose chars pass it only on the block's last line, is given whole only
    const short = 'A short paragraph.\nOf two lines.';
    const late = lines.slice(0, 3).join('\n');
    for (const t of [short, late]) {
      const none: unknown[] = [];
      walkParagraphs(
        t,
        lineBlocks(t)[0]!,
        1,
        () => true,
        (u) => none.push(u) > 0,
      );
      assert.deepEqual(none, [], t);
    }
  });

  it('gives the rough language of a unit as roughLanguage does, read once per start', () => {
    const cache = new ParagraphCache(TEXT, blocks);
    const u = { start: 0, text: 'The cat and the dog are in the garden with all of their friends and the bird.' };
    assert.equal(cache.roughOf(u), roughLanguage(u.text));
    // the same start is the same unit: its language is not read again
    assert.equal(
      cache.roughOf({ start: 0, text: 'Der Hund und die Katze sind mit allen ihren Freunden in dem Garten.' }),
      roughLanguage(u.text),
    );
  });
});
