/**
 * The prose splitter of language_switch: what is prose, where a paragraph ends, what is a title.
 * One row per shape of line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { letterCount } from '../../../src/core/detectors/languageId/charClasses.js';
import { paragraphUnits, proseParagraphs, UNIT_CHARS } from '../../../src/core/detectors/languageId/proseUnits.js';

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

  it('counts letters as \\p{L} code points (astral ones once)', () => {
    assert.equal(letterCount('ab 12 Ça 你好 𝐀!'), 7);
  });
});
