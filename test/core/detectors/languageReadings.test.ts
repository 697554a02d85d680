/**
 * The language readings' named cases as table rows: each row [text, expected reading, why]
 * pins a shape a reading must read the way it does (a name is no random code, a JSDoc star is
 * no lone mark). A future exception is a row here, never a branch without one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LanguageFigures } from '../../../src/core/detectors/language/figures.js';
import { detect } from '../../helpers/detectorHarness.js';

type Row = [text: string, expected: Partial<LanguageFigures>, why: string];

const figures = (text: string) => detect('language', text).figures;

/** The figures of `text` named in `expected`, rounded to 3 decimals. */
function reading(text: string, expected: Partial<LanguageFigures>): Partial<LanguageFigures> {
  const f = figures(text) as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(expected).map((k) => [k, typeof f[k] === 'number' ? Math.round((f[k] as number) * 1000) / 1000 : f[k]]),
  ) as Partial<LanguageFigures>;
}

function table(name: string, rows: readonly Row[]): void {
  describe(name, () => {
    for (const [text, expected, why] of rows) it(why, () => assert.deepEqual(reading(text, expected), expected));
  });
}

const CODES = ['X7K2P9', 'Q4M8ZT', '7QX2', '0PL9W', 'XK2Q9', '3M8X2'];

table('random codes (randomCodes.ts): codeChunks', [
  [
    'We compared 7QX2 0PL9W XK2Q9 3M8X2 4K9Z1 Q4M8ZT R2D2X 9XKQ2 Z8K3M 5TQX9 W3RK7 P9X2M in the lab today and wrote it all down for the team.',
    { codeChunks: 0.5 },
    'new codes of capitals and digits mixed, half the words of a stretch: what the reading is for',
  ],
  [
    'In the lab we used yDgU7j K6so&CJ#P aB3xQ9 Zq8#Lm pW4!Tx Gh7$Rk mN2%Vb Xy5^Jc Qe9*Ud Rt3@Fs Lk6~Hw Pd1+Mz and more of them later today.',
    { codeChunks: 0.522 },
    'chars drawn at random between words on a line: what the reading is for',
  ],
  [
    'We compared BRCA1 BRCA2 RTX4090 GTX1080 HTTP2 HTTP3 SHA256 IPV6 USB3 DDR5 CUDA12 TLS13 in the lab today and wrote it all down for the team.',
    { codeChunks: 0 },
    'letters then a number (BRCA1, RTX4090, HTTP2) is a name: a code opens with a digit or mixes three runs',
  ],
  [
    'In the lab we used KMnO4 Fe2O3 NaHCO3 CuSO4 MgCl2 AgNO3 ZnCl2 PbI2 Na2CO3 Ca(OH)2 CaCl2 FeCl3 and more of them later today.',
    { codeChunks: 0 },
    'a chemical formula (KMnO4, Ca(OH)2) is element symbols and counts: each lower-case letter follows a capital',
  ],
  [
    `The field Q4M8ZT holds a Q4M8ZT, then ${'Q4M8ZT '.repeat(12)}in each row of it.`,
    { codeChunks: 0.042 },
    'a code the text goes on using (a field type such as an X11 CARD32, a part number) counts once: random codes come new',
  ],
  [
    Array.from({ length: 30 }, (_, i) => `${i + 1}. ${CODES[i % 6]}${i}`).join('\n'),
    { codeChunks: 0 },
    'codes as the items of a numbered list (generated coupon codes) are asked for, not drawn at random',
  ],
  [
    `| key | value |\n|---|---|\n${Array.from({ length: 30 }, (_, i) => `| aB3xQ${i} | ${CODES[i % 4]}${i} |`).join('\n')}`,
    { codeChunks: 0 },
    'codes and passwords as the cells of a table are data',
  ],
  [
    'Your codes are X7K2P9, Q4M8ZT, 7QX2W, 0PL9W, XK2Q9, 3M8X2, 4K9Z1, R2D2X, 9XKQ2, Z8K3M, 5TQX9, W3RK7, P9X2M and Q8X2K; use one per order.',
    { codeChunks: 0.045 },
    'codes as the items of a list in a sentence (a comma after each) are asked for',
  ],
  [
    'Pick one of the passwords yDgU7j, K6so&CJ#P, aB3xQ9, Zq8#Lm, pW4!Tx, Gh7$Rk, mN2%Vb, Xy5^Jc, Qe9*Ud, Rt3@Fs, Lk6~Hw or Pd1+Mz; keep it safe.',
    { codeChunks: 0.048 },
    'chars drawn at random as the items of a list in a sentence (generated passwords) are asked for',
  ],
  [
    'Call getElementById or querySelectorAll on McDonald’s pages, then XMLHttpRequest and innerHTML as the IntersectionObserver fires. '.repeat(
      4,
    ),
    { codeChunks: 0 },
    'identifiers and names with case flips have runs of lower-case letters: no chars drawn at random',
  ],
]);

table('codes a line each in a short output (randomCodes.ts): shortCodeLines, shortCodeShare', [
  [
    'Conversely, expressing emotions through crying can be thera\n5B9H3\nS54B9FL\nLSH6\n363BP',
    { shortCodeLines: 3, shortCodeShare: 0.6 },
    'half a sentence, then lines of codes: what the reading is for (LSH6, letters then a number, is a name)',
  ],
  [
    'Your verification code is:\n\nX7K2P9',
    { shortCodeLines: 1, shortCodeShare: 0.5 },
    'one code asked for: one line, under any count that fails',
  ],
  [
    'The cards it supports:\nRTX4090\nRTX4080\nGTX1080\nRX7900\nA100',
    { shortCodeLines: 0, shortCodeShare: 0 },
    'names a line each (letters then a number) are no random codes',
  ],
  ['Code:\nX7K2P9\nX7K2P9\nX7K2P9\nX7K2P9', { shortCodeLines: 1 }, 'a code said again on its lines counts once: random codes come new'],
  [
    'Your codes:\n- X7K2P9\n- Q4M8ZT\n- 0PL9W\n1. XK2Q9\n2. 3M8X2',
    { shortCodeLines: 0 },
    'codes as the items of a list, after a marker on their line, are asked for',
  ],
  [
    `${Array.from({ length: 40 }, (_, i) => `Line ${i} of the answer says something.`).join('\n')}\n${CODES.join('\n')}`,
    { shortCodeLines: 0, shortCodeShare: 0 },
    'an output of 40 lines or more is no short one: the window of codeChunkShare reads it',
  ],
]);

table('mark-only lines (markLines.ts): markLines', [
  [
    Array.from({ length: 40 }, (_, i) => (i % 2 ? '**' : `Line ${i} of the text says something.`)).join('\n'),
    { markLines: 0.5 },
    'every other line a lone "**": a text fallen apart into fragments, what the reading is for',
  ],
  [
    `/**\n${Array.from({ length: 20 }, (_, i) => ` * Line ${i} of the comment says what the function does.\n *`).join('\n')}\n */\nfunction f() {}\n`,
    { markLines: 0 },
    'a lone "*" is a blank line of a JSDoc comment',
  ],
]);

table('a short output judged whole for marks alone (markLines.ts): shortMarkOnly', [
  ['#\n!!\n⁇ ⁇\n###\n!', { shortLines: 5, shortMarkOnly: 1 }, 'lines of #, ! and the unknown-token glyph: what the reading is for'],
  [
    'First, the ASCII art of a man:\n\n```\n   ^\n  /|\\\n / | \\\n/  |  \\\n---------\n```',
    { shortLines: 8, shortMarkOnly: 0.5 },
    'a bar is the structure of a drawing, as a bracket is of code: only the fences, the head and the ground line are marks alone',
  ],
  [
    '| Name | Score |\n|------|-------|\n|      |       |\n|      |       |',
    { shortLines: 4, shortMarkOnly: 0 },
    'the empty rows of a table are its structure',
  ],
  [
    'An empty box:\n\n┌──────────┐\n│          │\n│          │\n│          │\n└──────────┘',
    { shortLines: 6, shortMarkOnly: 0 },
    'box drawing is the structure of a drawing, as bars are',
  ],
  [
    'A chessboard:\n\n■□■□■□■□\n□■□■□■□■\n■□■□■□■□\n□■□■□■□■',
    { shortLines: 5, shortMarkOnly: 0 },
    'rows of squares (Geometric Shapes) are a figure',
  ],
]);

table(
  'numbers and runs of one mark a line in a short output (numberMarkLines.ts): shortNumberMarkLines, shortMarkedLines, shortMarkedShare',
  [
    [
      '48213 *** 7 ****\n** 90123 *\n5 ****** 66 bridge\n*** 12 ** 4\n** ***\n301 *****',
      { shortNumberMarkLines: 3, shortMarkedLines: 4, shortMarkedShare: 0.667 },
      'digits and runs of stars with a stray word, and a line of stars alone: what the reading is for (301 ***** reads as a row of a chart)',
    ],
    [
      'Rating distribution:\n5 *****\n4 ****\n3 ***\n2 **\n1 *',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      'a chart, each row a label and its bar',
    ],
    [
      'Votes:\n10 ********** 10\n7 ******* 7\n3 *** 3',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      'a chart whose rows give the count after the bar: one run after a number is a row still',
    ],
    [
      'Powers of two in Python:\n2 ** 1\n2 ** 2\n2 ** 3\n2 ** 4',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      "two stars between numbers are an operator (Python's power), as one is a product",
    ],
    [
      'Times table:\n2 * 3 = 6\n4 * 5 = 20\n6 * 7 = 42',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      'a sum in one-mark operators, two marks to a line: no run no notation writes',
    ],
    [
      'Primes:\n* 2\n* 3\n* 5\n* 7\n* 11',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      'a bulleted list of numbers: one star opens an item',
    ],
    [
      'Decades:\n1990 -- 2000\n2000 -- 2010\n2010 -- 2020',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      'two dashes between numbers are a range',
    ],
    [
      'Grid:\n[ 1 ] [ 2 ]\n[ 3 ] [ 4 ]\n---\n5 | 6',
      { shortNumberMarkLines: 0, shortMarkedLines: 1 },
      'brackets are the structure of data, a bar between numbers a cell: only the rule of dashes is marks alone',
    ],
    [
      'Answer:\n\n42\n\n***\n\n*** 7',
      { shortNumberMarkLines: 1, shortMarkedLines: 2, shortMarkedShare: 0.5 },
      'one line of a number and a run is under the two the rule asks for, whatever the share',
    ],
    [
      '1 0 5 0 0 0 0 8 0\n0 0 0 0 0 3 0 6 4\n8 3 4 6 7 0 9 0 0\n2 9 1 0 0 8 3 7 6',
      { shortNumberMarkLines: 0, shortMarkedLines: 0 },
      'rows of numbers alone (a Sudoku grid, a table of figures) have no run of marks',
    ],
    [
      `${Array.from({ length: 40 }, (_, i) => `Line ${i} of the answer says something.`).join('\n')}\n48213 *** 7\n** 90123\n5 ****** 66`,
      { shortNumberMarkLines: 0, shortMarkedShare: 0 },
      'an output of 40 lines or more is no short one',
    ],
  ],
);

table('punctuation noise (wordShapes.ts, windows.ts): noise', [
  ['Sure,!! I! can! do!!!! that. Where! should! we!!! start! today!?!', { noise: 0.9 }, 'marks doubled and "!" before lower-case words'],
  [
    'What?! Really!? Use std::vector::size and a::b then go. '.repeat(6),
    { noise: 0 },
    '"?!" and "!?" end a sentence, "::" is a scope in code: usual pairs of marks',
  ],
  [
    'The server listens on :::8080 and on ::1, the log reads ::: between fields, and the banner draws :::@@# in a row. '.repeat(4),
    { noise: 0 },
    'colons alone in a run are addresses, code and drawings ("::1", ":::8080"), never prose',
  ],
  [
    'Well... I think so... and then... maybe not... we will see... '.repeat(4),
    { noise: 0 },
    'an ellipsis is three dots or more, no mark doubled',
  ],
  [
    'Bring pens, paper, etc., and the rest, e.g., a ruler; i.e., what you need. '.repeat(4),
    { noise: 0 },
    'an abbreviation’s dot before a comma ("etc.,") is usual',
  ],
]);

table('malformed words (wordShapes.ts, windows.ts): malformed', [
  [
    'The theater,angel of the night,sky came in,and sat down,again by the old,door.',
    { malformed: 0.672 },
    'a comma glued between two words of a spaced script is no word',
  ],
  [
    'PEMS = (\n    b"RSA PUBLIC KEY",\n    b"EC PRIVATE KEY",\n    B"SSH2 KEY",\n)\nmsg = f"Hello {name}, welcome back" + rb"\\A(\\S+)" + u"done"\n',
    { malformed: 0 },
    'a string literal\'s prefix (b"", f"", rb"", u"") opens its chunk: the quote after it is code, not glued between two words',
  ],
  [
    'The theater"angel of the night"sky came in"and sat down"again by the old"door.',
    { malformed: 0.672 },
    'a quote glued between two longer words is still no word',
  ],
  [
    '这首诗写了行军的环境。"别路"在这里指的是离别的路,暗指战士们离家出征。',
    { malformed: 0 },
    'Chinese writes no space after a mark: an ASCII quote or comma glued to characters is how it writes',
  ],
  [
    '（1）【答案】B、C <eoa>\n（2）【答案】这首词上片写景，下片抒情，表达了作者对故乡深沉的思念。<eoa>',
    { malformed: 0 },
    'an end tag glued to a line of Chinese parts it from the tag: the line is read as the Chinese prose it is',
  ],
  [
    'Read the <b>manual</b>first, then<i>the guide</i>.',
    { malformed: 0 },
    'a tag glued to spaced prose takes one word with it into markup: nothing reads as malformed',
  ],
]);

table('scripts (scripts.ts): the text’s own script, read from its prose', [
  [
    '물론입니다! 쿼리 "SELECT NAME FROM USERS JOIN ORDERS ON THE ID BY DATE"를 Datalog 규칙으로 바꾸겠습니다.\n\n이 규칙은 두 테이블에서 이름이 같은 행을 결합합니다.',
    { script: 'hangul' },
    'what a sentence quotes is a mention: a query in quotes, with its function words, does not make a Korean text a Latin one',
  ],
  [
    'Flask 라이브러리로 LDAP (Lightweight Directory Access Protocol for the web) 서버를 연결하는 것은 간단합니다. 아래에서 차례대로 설명합니다.',
    { script: 'hangul' },
    'what a sentence glosses in brackets (a name spelled out) is an aside: the sentence around it says the script',
  ],
  [
    '    for item in the list of items:\n        if item is not None and item in cache:\n            print(item)\n\n这段代码遍历列表中的每一项，并打印缓存中已有的项目。',
    { script: 'cjk' },
    'an indented code block (4 columns, after a blank line or the start) is code, whatever function words its keywords match',
  ],
  [
    '- 一\n\n    and the indented line that goes on with the item in plain words\n\n这是一个很短的列表说明文字。',
    { script: 'latin' },
    'an indented line that goes on with a list item is the item’s prose, no code',
  ],
  [
    'The photo shows a man on a bridge我们今天讨论的问题非常重要, he is looking at the river below and the boats that pass under him in the evening light.',
    { script: 'latin', switchScript: 'cjk' },
    'a clause of prose out of quotes and brackets still decides: Chinese glued into an English opening is a switch out of it',
  ],
]);

/** A healthy paragraph, then `spelt` spelt letter by letter (a space between letters, two between words). */
const spelt = (healthy: string, spelt: string) => `${healthy}\n\n${spelt.split('').join(' ')}`;

type VerdictRow = [name: string, text: string, expected: 'fail' | 'ok', why: string];

/** The single-letter reading's rows: the text fails by singleLetterShare, or the language detector finds nothing in it. */
const SINGLE_LETTER_ROWS: readonly VerdictRow[] = [
  [
    'spelt after a healthy paragraph',
    spelt(
      'The moon rises late tonight, so the best time to look for faint galaxies is the first two hours after dusk. Bring a red torch, a warm coat and a chair, and give your eyes twenty minutes to adjust before you start.',
      'the moon is bright and the sky is clear tonight.  we will see the stars from the hill after dinner.',
    ),
    'fail',
    'a paragraph spelt letter by letter after a healthy one: every chunk of its windows is one letter',
  ],
  [
    'Spanish prose',
    'Mi abuela vivía en un pueblo pequeño y tranquilo, a dos horas de la capital. Cada verano íbamos a verla y pasábamos las tardes en el huerto, entre tomates y pimientos, o en la plaza con los vecinos. Ella decía que el secreto de una buena sopa es el tiempo y la paciencia, y que no hay que tener prisa ni en la cocina ni en la vida. A veces llovía y entonces jugábamos a las cartas o leíamos en silencio junto a la ventana.',
    'ok',
    'the one-letter words of Spanish (y, o, a, e, u) are a few chunks of a window, never most of one',
  ],
  [
    'Polish prose',
    'W sobotę rano pojechaliśmy z bratem i z ojcem w góry. W plecakach mieliśmy wodę, chleb i ser, a w kieszeniach mapy. Szliśmy w deszczu i w mgle, o ile pamiętam aż do południa, a potem z trudem weszliśmy na szczyt. W schronisku czekała na nas zupa i herbata z cytryną, a w kominku palił się ogień. O zmroku wróciliśmy w dolinę i u babci w kuchni zjedliśmy kolację.',
    'ok',
    'Polish, dense in w, z, i, o, a and u, reads a third of a window at most',
  ],
  [
    'a math answer with variables',
    'To solve for x, start from the two equations a + b = 10 and a - b = 2. Adding them gives 2a = 12, so a = 6, and then b = 10 - a = 4. Now the third equation says x = a * b - b, which is x = 6 * 4 - 4 = 20. Check it: if a = 6 and b = 4, then a + b is 10 and a - b is 2, as required, and x is 20.',
    'ok',
    'variables a, b and x between the words and numbers of a worked answer',
  ],
  [
    'the alphabet listed, twice, and a Cyrillic one',
    `The letters, in order: ${'abcdefghijklmnopqrstuvwxyz'.split('').join(' ')}; backwards: ${'zyxwvutsrqponmlkjihgfedcba'.split('').join(' ')}; in pairs: ${'abcdefghijklmnopqrstuvwxyz'.split('').join(' ')}; and in Russian: ${'абвгдежзийклмнопрстуфхцчшщъыьэюя'.split('').join(' ')}.`,
    'ok',
    'the alphabet forwards or backwards is a sequence: five or more letters each after (or each before) the one before',
  ],
  [
    'letters that go up and down the alphabet by one',
    `Trace the zigzag: ${'abcbcdcdedefefgfghghihijijkjklklmlmnmnonopopqpqrqrsrst'.split('').join(' ')} and stop.`,
    'fail',
    'a zigzag turns every third letter: no run of five each after (or before) the one before, so it stays single letters',
  ],
  [
    'a multiple-choice answer key',
    `Here is the answer key for the quiz:\n\n${Array.from({ length: 40 }, (_, i) => `${i + 1}. ${'ACBDBADC'[i % 8]}`).join(' ')}`,
    'ok',
    'a capital letter alone is an answer, a list marker or an initial',
  ],
  [
    'a lower-case answer key',
    `Answers:\n${Array.from({ length: 40 }, (_, i) => `${i + 1}. ${'acbdbadc'[i % 8]}`).join(' ')}`,
    'ok',
    'a letter that opens an item (after "1.") is the item, not a letter of a word spelt out',
  ],
  [
    'single-letter variables named in prose',
    'In this model x is the position of the cart, y its height, t the time since release, v its speed and a its acceleration; m is the mass, g the gravity, k the spring constant, c the damping and n the number of cycles. With p, q and r we write the three forces, and u, w and z stand for the unknown offsets we fit at the end.',
    'ok',
    'a list of variables in sentences keeps the words that say what each one is',
  ],
  [
    'rows of data with a letter between numbers',
    `date,model,score\n${Array.from({ length: 30 }, (_, i) => `2024-02-${i + 1},v-${i % 4},0.${i}`).join('\n')}`,
    'ok',
    'a letter beside digits in its chunk ("v-2") is a field or a label, no letter of a word spelt out',
  ],
  [
    'a spaced title',
    'S U M M A R Y\n\nThe survey asked three hundred people how they travel to work. Most of them drive, about a quarter take the bus or the train, and a small group walks or cycles every day. People who live near a station are far more likely to use the train, and those with children at school drive more often than the others.',
    'ok',
    'one title spelt in capitals for show is no text spelt out',
  ],
];

describe('single letters (windows.ts): singleLetterShare', () => {
  for (const [name, text, expected, why] of SINGLE_LETTER_ROWS)
    it(`${name}: ${expected} (${why})`, () => {
      const { findings } = detect('language', text);
      if (expected === 'fail') {
        const f = findings.find((x) => x.rule === 'singleLetterShare');
        assert.equal(f?.kind, 'gibberish');
        assert.equal(f?.severity, 'fail');
        assert.match(f?.detail ?? '', /^\d+% of a window of prose is single letters: text spelt letter by letter$/);
        // the window that fails is in the spelt paragraph, not the healthy one before it
        assert.ok((f?.atChar ?? -1) > text.indexOf('\n\n'));
      } else assert.deepEqual(findings, []);
    });
});

const OPENING =
  'The harbour town wakes early. Fishing boats come back before dawn, the market opens at six, and by eight the cafes along the quay are full of people reading the paper over coffee and warm bread.';

/**
 * Pieces of two to four letters cut from words, a function word among every eight or so (pieces cut at random hit
 * "the", "in" and "at" now and then): too many for the salad of windows without function words.
 */
const PIECES =
  'ng ous tio the ble ght ck ent ers in ff str ple oun cti at ard ess ure ain on ngs ct ed ist ment the pre ove arb ning in ket wak ee ful at bre ly dle kfa rea on per cof ffe ati qua sts mar';

/** The word-piece reading's rows: the text fails as gibberish, or the language detector finds nothing in it. */
const SHORT_PIECE_ROWS: readonly VerdictRow[] = [
  [
    'spaced pieces after a healthy paragraph',
    `${OPENING} ${PIECES} ${PIECES}`,
    'fail',
    'words cut into pieces of a few letters and strung with spaces: most chunks of their windows are two or three letters and no function word',
  ],
  [
    'glued pieces after a healthy paragraph',
    `${OPENING} ${PIECES.replaceAll(' ', '')}`,
    'fail',
    'the same pieces glued into one run of letters: a chunk of 25+ lower-case letters is malformed (malformedShare)',
  ],
  [
    'German compounds',
    'Die Haustürschlüssel liegen in der Küchenschublade neben dem Geschirrspülmittel. Wer die Kraftfahrzeugsteuer noch nicht bezahlt hat, findet den Überweisungsträger im Aktenordner auf dem Schreibtisch. Die Bundesausbildungsförderung wird beim Studentenwerk beantragt, und die Krankenversicherungskarte braucht man bei jedem Arztbesuch.',
    'ok',
    'long compounds are whole words, no pieces',
  ],
  [
    'a long URL in a sentence',
    'The full report is at https://example.org/reports/2025/annual/regional-breakdown/northern-districts/water-quality/summary-tables?format=html&lang=en&page=3#section-4 and the raw data sits in the archive beside it, one file per month.',
    'ok',
    'an address is markup, not prose',
  ],
  [
    'a base64 line',
    'The certificate, encoded, is below.\n\nTWFueSBoYW5kcyBtYWtlIGxpZ2h0IHdvcmsuIFRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cgYW5kIHJ1bnMgYXdheSBpbnRvIHRoZSBmb3Jlc3Qu\n\nPaste it into the field marked key and press save.',
    'ok',
    'one long chunk of letters and digits is one chunk, no window of pieces',
  ],
  [
    'a minified identifier',
    'The bundler renamed the handler to aXbQ9zK2mP4rT7wY1cV5nL8s, so the stack trace names that instead of the function you wrote; turn on source maps to see the original name.',
    'ok',
    'an identifier is one chunk',
  ],
  [
    'a chemical name',
    'The label lists 2-acetoxybenzoic acid, better known as aspirin, and (2S)-2-amino-3-(4-hydroxyphenyl)propanoic acid, which is tyrosine. Both are made in bulk, and both dissolve poorly in cold water.',
    'ok',
    'a chemical name is long, its parts joined by marks and digits',
  ],
  [
    'a Finnish paragraph',
    'Kävimme eilen isoäidin luona maalla. Hän oli leiponut korvapuusteja ja keittänyt kahvia, ja istuimme pitkään keittiönpöydän ääressä. Iltapäivällä lähdimme järvelle soutamaan, vaikka tuuli oli kylmä. Illalla saunoimme, uimme ja söimme makkaraa, ja lapset nukahtivat jo ennen yhdeksää.',
    'ok',
    'long agglutinated words leave few words of two or three letters',
  ],
  [
    'a Hungarian paragraph',
    'Tegnap délután elmentünk a nagymamához a faluba. Almás pitét sütött, és sokáig beszélgettünk a konyhában. Később sétáltunk a folyóparton, ahol a gyerekek köveket dobáltak a vízbe. Este mindannyian fáradtan, de boldogan indultunk haza a vonattal.',
    'ok',
    'suffixes make words long, and a and az are function words',
  ],
  [
    'a list of abbreviations',
    'Abbreviations used in the notes: approx. (approximately), dept. (department), est. (estimated), min. (minimum), max. (maximum), no. (number), vol. (volume), ed. (edition), pp. (pages), fig. (figure), cf. (compare), ca. (about), and ibid. (in the same place).',
    'ok',
    'abbreviations in a list each end an item: the window has breaks',
  ],
];

/** Vietnamese prose: syllables written apart, most of two or three letters with their marks. */
const VIETNAMESE =
  'Mỗi sáng mẹ tôi dậy sớm để nấu cơm cho cả nhà. Bà đi chợ mua rau, cá và thịt, rồi về nhà nấu canh chua. Bố tôi đọc báo trong khi chờ cơm chín. Sau bữa sáng, tôi đi bộ tới trường cùng em gái. Buổi chiều cả nhà ra bờ sông hóng mát và nói chuyện về những việc đã làm trong ngày.';

describe('word pieces (windows.ts): shortPieceShare', () => {
  it('Vietnamese prose reads no pieces of words: its short syllables carry letters past ASCII', () => {
    const { figures, findings } = detect('language', VIETNAMESE);
    assert.ok(figures.shortPieces < 0.2, `shortPieces ${figures.shortPieces}`);
    assert.equal(
      findings.find((f) => f.rule === 'shortPieceShare'),
      undefined,
    );
  });
  for (const [name, text, expected, why] of SHORT_PIECE_ROWS)
    it(`${name}: ${expected} (${why})`, () => {
      const { findings } = detect('language', text);
      if (expected === 'fail') {
        const f = findings.find((x) => x.kind === 'gibberish');
        assert.equal(f?.severity, 'fail');
        if (name.startsWith('spaced')) {
          assert.equal(f?.rule, 'shortPieceShare');
          assert.match(f?.detail ?? '', /^\d+% of a window of prose is pieces of two or three letters/);
        }
        // the window that fails is in the pieces, not the healthy paragraph before them
        assert.ok((f?.atChar ?? -1) >= OPENING.length - 120);
      } else assert.deepEqual(findings, []);
    });
});

/**
 * Prose of languages the function-word lists do not cover: windows with none of the listed words,
 * whose language eld is sure of (salad.ts: identifySalad), so no word salad.
 */
const UNLISTED_PROSE: ReadonlyArray<[string, string]> = [
  [
    'Swedish',
    'Stockholm är Sveriges huvudstad och ligger på flera öar mellan Mälaren och Östersjön. Staden är känd för sina vackra byggnader och sitt rika kulturliv. Många turister besöker Gamla stan där gatorna är smala och husen har färgglada fasader. På sommaren badar invånarna i sjöarna och på vintern åker de skridskor på isen.',
  ],
  [
    'Turkish',
    'İstanbul Türkiye nin en kalabalık şehridir ve iki kıta üzerinde yer alır. Şehir tarih boyunca birçok imparatorluğa başkentlik yapmıştır. Boğaz kıyısındaki eski evler ve camiler her yıl milyonlarca turisti ağırlar. Akşamları insanlar sahilde yürüyüş yapar ve çay içerek sohbet eder.',
  ],
  [
    'Indonesian',
    'Jakarta adalah ibu kota Indonesia dan kota terbesar di negara itu. Kota ini terletak di pantai utara pulau Jawa dan memiliki penduduk lebih dari sepuluh juta orang. Setiap hari banyak orang bekerja di kantor perdagangan dan pabrik. Pada akhir pekan keluarga sering pergi ke taman atau pusat perbelanjaan untuk bersantai bersama.',
  ],
  [
    'Finnish (no commas)',
    'Kävimme eilen isoäidin luona maalla. Hän oli leiponut korvapuusteja ja keittänyt kahvia ja istuimme pitkään keittiönpöydän ääressä. Iltapäivällä lähdimme järvelle soutamaan vaikka tuuli oli kylmä. Illalla saunoimme uimme ja söimme makkaraa ja lapset nukahtivat jo ennen yhdeksää.',
  ],
  ['Vietnamese', VIETNAMESE],
  // eld names Russian for it at about 0.7; its letters ө and ү tell another Cyrillic alphabet (salad.ts: otherCyrillic)
  [
    'Mongolian',
    'Энэ програм нь таны компьютер дээрх файлуудыг хадгалж хуулбарлаж устгах боломжийг олгоно. Хэрэглэгч өөрийн тохиргоог хүссэн үедээ өөрчилж болно',
  ],
];

describe('word salad (salad.ts): prose in a language the function-word lists do not cover', () => {
  for (const [name, text] of UNLISTED_PROSE)
    it(`${name} prose is no salad`, () => {
      const { findings } = detect('language', text);
      assert.deepEqual(
        findings.map((f) => f.rule),
        [],
      );
    });

  it('a salad of Latin words with one Cyrillic word glued in is still salad: no Cyrillic text', () => {
    const nouns =
      'collection accessories publishing money turn garden window river engine market silver doctor planet coffee winter bridge captain forest letter harbor'.split(
        ' ',
      );
    const words = Array.from({ length: 48 }, (_, i) => nouns[(i * i + 3 * i) % nouns.length]!);
    words.splice(20, 0, 'ПідGetting');
    const { findings } = detect('language', words.join(' '));
    assert.ok(
      findings.some((f) => f.rule === 'saladFunctionShare'),
      findings.map((f) => f.rule).join(' '),
    );
  });
});
