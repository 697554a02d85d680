/**
 * Healthy structure that a missing normalisation once failed (issue 35), each on a text written
 * for this test, as rows of [name, text, expected verdict and finding kind, why]. A shape that
 * must stay ok is a row here, never a branch in a detector.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { healthyProse } from '../helpers/texts.js';

const POEM = [
  'The harbour wakes before the gulls,',
  'a lantern swings on tarred-black hulls,',
  'the tide goes out and leaves its lace',
  'of salt along the quayside face.',
  'A cooper rolls his barrels down,',
  'the bells begin across the town,',
  'and fishwives call the morning price',
  'of mackerel packed in shaven ice.',
];

const MORSE =
  'A .-\nB -...\nC -.-.\nD -..\nE .\nF ..-.\nG --.\nH ....\nI ..\nJ .---\nK -.-\nL .-..\nM --\nN -.\nO ---\nP .--.\nQ --.-\nR .-.\nS ...\nT -\nU ..-\nV ...-\nW .--\nX -..-\nY -.--\nZ --..';
/** Prototypes whose parameters have no names, as C headers write them: a star then a comma after each pointer type. */
const PROTOTYPES = [
  '/* The store client: every call takes the domain, the map and the key. */',
  '',
  ...['open', 'close', 'read', 'write', 'seek', 'stat', 'lock', 'sync', 'copy', 'move', 'link', 'list'].map(
    (name, k) =>
      `extern int store_${name} (const char *, const char *, ${k % 2 ? 'char **,' : 'size_t *,'}\n\t\t    int *, char **, int *);`,
  ),
  '',
  '#endif',
].join('\n');
const DNA = [
  'Here is the sequence you asked for:',
  '',
  'ATGGCGTACGTTAGCCTAGGCTAACGGTACGATCGATCGGCTAGCTAGGATCCGATCGTAGCTAGCTAGGCTA',
  'GCTAGCTAGGATCGATCGGATCGTAGCTAGCTAGCTAGGCTAGCGATCGATCGTAGCTAGCTGATCGATCGA',
  'TTAGCGCGATCGATCGATTAGCGCTAGCTAGCGATCGATCGATGCTAGCTAGCTAGCGGCGCGATATATCGCG',
].join('\n');
const EMOJI = 'Here are some fun emoji combos:\n\n🐶🐱🐭🐹🐰🦊🐻🐼\n🍎🍐🍊🍋🍌🍉🍇🍓\n⚽🏀🏈⚾🎾🏐🏉🎱\n🚗🚕🚙🚌🚎🏎🚓🚑';
const FIZZBUZZ = Array.from({ length: 40 }, (_, i) =>
  (i + 1) % 15 === 0 ? 'FizzBuzz' : (i + 1) % 3 === 0 ? 'Fizz' : (i + 1) % 5 === 0 ? 'Buzz' : String(i + 1),
).join('\n');

const SQUARES = Array.from({ length: 20 }, (_, i) => `The square of ${i + 1} is ${(i + 1) ** 2}.`).join('\n');
const CELSIUS = Array.from({ length: 15 }, (_, i) => `${i * 10} degrees Celsius is ${i * 18 + 32} degrees Fahrenheit.`).join('\n');
const QUIZ = Array.from({ length: 20 }, (_, i) => `${i + 1}. What is ${i + 2} × ${(i % 9) + 3}? Answer: ${(i + 2) * ((i % 9) + 3)}`).join(
  '\n',
);
const STEPS = Array.from({ length: 20 }, (_, i) => `Step ${i + 1}: check the configuration and restart the service.`).join('\n');
/** The poem with each line indented by `k` copies of a character reference, every fourth twice as deep. */
function indented(reference: string, k: number): string {
  return POEM.map((l, i) => `${reference.repeat(i % 4 === 3 ? 2 * k : k)}${l}<br>`).join('\n');
}

/**
 * CSV tables of bills in one template, each column drawing from a few values of a shared pool
 * and a running line number: rows that return to the same material again and again, as data does.
 */
function billTables(count: number): string[] {
  let seed = 3;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(next() * a.length)]!;
  const pool = ['Pasta', 'Pizza', 'Salad', 'Wine', 'Water', 'Soup', 'Cake', 'Tea', 'Cash', 'Card', 'Lunch', 'Dinner'];
  const tables: string[] = [];
  for (let n = 0; n < count; n++) {
    const k = 2 + Math.floor(next() * 6);
    const columns = Array.from({ length: 4 + Math.floor(next() * 4) }, (_, c) =>
      Array.from({ length: k }, (_, v) =>
        c === 0 ? `Bill ${v}` : pick([...pool, (next() * 50).toFixed(2), String(Math.floor(next() * 9))]),
      ),
    );
    const rows = [columns.map((_, c) => `col${c}`).join(',')];
    const count = 20 + Math.floor(next() * 60);
    for (let i = 0; i < count; i++) rows.push(columns.map((values, c) => (c === 1 ? String(i + 1) : pick(values))).join(','));
    tables.push(rows.join('\n'));
  }
  return tables;
}

const bills = billTables(120);

const licence = [healthyProse(1500, 21), healthyProse(1500, 22), healthyProse(1500, 23)].join('\n\f\n');

/** A short price table, then one sentence that opens with a product title strung of keywords, as shops name products. */
const PRODUCT_TITLE = [
  '| Item | Price | Rating |',
  '| ------ | ------ | ------ |',
  '| Lumora (LX2) | $12.49 | 4.6 |',
  '| 24-Piece Brush Set | $19.99 | 4.7 |',
  '',
  'The Lumora Watercolor Brushes Round Brushes Flat Brushes Detail Brushes Fine Tip Nylon Brushes Synthetic Bristle Brush Set for Painting Sketching Calligraphy Lettering Craft Hobby Studio Classroom Art Supplies, 24 Piece are a fair buy at their prices and suit any careful painter or student.',
].join('\n');

/** The same sentence with its title turned into lower-case keywords strung without a break: word salad. */
const STRUNG_KEYWORDS = `The ${'watercolor brushes round brushes flat detail tip nylon synthetic bristle painting sketching calligraphy lettering craft hobby studio classroom supplies piece '.repeat(2)}are a fair buy.`;

/** A Chinese exam answer as some models write it: answer markers, an end tag glued to the text, ASCII quotes glued to characters. */
const EXAM_ANSWER = [
  '（1）【答案】B、C <eoa>',
  '（2）【答案】这首词上片写景，下片抒情，"归路"在这里指回乡的路，表达了作者对故乡深沉的思念和漂泊在外的孤独。<eoa>',
].join('\n');

/**
 * A test file written as code is: callbacks nested in callbacks, each closed on its own line, so
 * the file ends in a staircase of `})` that closes what the file opened.
 */
function nestedTests(depth: number): string {
  const open: string[] = ["'use strict'", '', "const { test } = require('node:test')", "const { createServer } = require('node:http')", ''];
  const close: string[] = [];
  const names = ['server', 'socket', 'request', 'response', 'stream', 'reopen', 'flush', 'drain'];
  for (let d = 0; d < depth; d++) {
    const pad = '  '.repeat(d);
    const name = names[d % names.length]!;
    open.push(`${pad}${d === 0 ? 'test' : `${name}.on`}('${name} ${d} answers once', (err, value${d}) => {`);
    open.push(`${pad}  t.error(err)`);
    open.push(`${pad}  t.equal(value${d}.length, ${d + 3}, 'the ${name} keeps its ${d + 3} entries')`);
    open.push(`${pad}  const next${d} = value${d}.map((entry) => entry.id * ${d + 2})`);
    close.unshift(`${pad}})`);
  }
  return `${open.join('\n')}\n${'  '.repeat(depth)}stream.end()\n${close.join('\n')}\n`;
}

/** Control chars written into the string literals of code, as encoding and terminal tests hold them. */
const CONTROLS_IN_LITERALS = [
  "const { test } = require('node:test')",
  "const { escape } = require('../lib/escape')",
  '',
  "test('control characters are escaped', (t) => {",
  '  const cases = [',
  "    ['\\u0000', '%00'],",
  "    ['\\u0007', '%07'],",
  "    ['\\u001f', '%1F'],",
  "    ['\\u007f', '%7F']",
  '  ]',
  '  for (const [input, output] of cases) t.assert.strictEqual(escape(input), output)',
  '})',
  '',
  "test('colours are kept', (t) => {",
  '  const line = `[${time}] LEVEL: \\u001b[32mINFO\\u001b[39m (${pid}): \\u001b[36mfoo\\u001b[39m\\n`',
  "  t.assert.strictEqual(format({ level: 30, msg: 'foo' }), line)",
  '})',
  '',
].join('\n');

/** The same control chars strewn through prose words: a broken decode. */
const CONTROLS_IN_PROSE = healthyProse(300, 7).replace(/(\w{3})(\w+) /g, (_, a: string, b: string) => `${a}\u0007${b} `);

/** A package.json whose test script chains commands with &&. */
const NPM_SCRIPTS = JSON.stringify(
  {
    name: 'example-client',
    version: '1.2.3',
    description: 'A small HTTP client with fetch, streams and caching',
    scripts: {
      test: [
        'generate-pem',
        'test:unit',
        'test:fetch',
        'test:cache',
        'test:cookies',
        'test:stream',
        'test:proxy',
        'test:mock',
        'test:retry',
        'test:pool',
        'test:agent',
        'test:types',
        'test:websocket',
        'test:eventsource',
        'test:wpt',
      ]
        .map((s) => `npm run ${s}`)
        .join(' && '),
      lint: 'eslint --cache',
    },
  },
  null,
  2,
);

/** A CLI's help text kept as one JSON string: its line breaks are the escape \n. */
const HELP_JSON = JSON.stringify({
  help: [
    'Usage: browser-cli <command> [options]',
    '',
    'Emulation:',
    ...[
      'color-scheme',
      'reduced-motion',
      'forced-colors',
      'contrast',
      'media',
      'viewport',
      'locale',
      'timezone',
      'geolocation',
      'offline',
    ].flatMap((s) => [
      `  set-${s.padEnd(24)}set ${s.replace('-', ' ')} emulation`,
      `  clear-${s.padEnd(22)}clear ${s.replace('-', ' ')} emulation`,
    ]),
    '',
    'Network:',
    '  requests                    list all network requests since load',
    '  route <pattern>             mock network requests matching a pattern',
  ].join('\n'),
});

/** Tests of host names whose labels are in two scripts ("商店.example.cn"), one call a line. */
const HOST_TESTS = ['商店', '书店.公司', '花园', '茶馆.网络', '市场.公司', '银行', '学校.网络', '医院.公司']
  .flatMap((label, i) => [
    `checkHost('${label}.example.cn', '${label}.example.cn');`,
    `checkHost('www.${label}.shop${i}.cn', '${label}.shop${i}.cn');`,
    `checkHost('mail.${label}.org', null);`,
    `checkAddress('user${i}@${label}.example.org', ['user${i}@xn--${i}k${i}a.example.org']);`,
  ])
  .join('\n');

const ROWS: Array<[name: string, text: string, want: 'ok' | RegExp, why: string]> = [
  ['a poem indented with &ensp;', `Here is the poem:\n\n${indented('&ensp;', 12)}\n`, 'ok', 'references of whitespace are whitespace'],
  ['a poem indented with &#x2003;', `Here is the poem:\n\n${indented('&#x2003;', 8)}\n`, 'ok', 'numeric references too'],
  ['a licence with form-feed page breaks', licence, 'ok', 'form feed is whitespace'],
  ...bills.map((t, i): [string, string, 'ok', string] => [
    `CSV of bills ${i} (${t.split('\n').length} rows)`,
    t,
    'ok',
    'rows of a delimited table are data',
  ]),
  ['a CSV of bills as a markdown table', bills[13]!.replace(/^|$/gm, '|').replaceAll(',', ' | '), 'ok', 'pipes delimit too'],
  ['a CSV of bills tab-separated', bills[13]!.replaceAll(',', '\t'), 'ok', 'tabs delimit too'],
  [
    'one bill row said 40 times',
    `${bills[0]!.split('\n').slice(0, 4).join('\n')}\n${'Bill 0,4,Soup,Tea,Lunch,Card,Cake\n'.repeat(40)}`,
    /line_loop/,
    'copies of a row are a loop',
  ],
  ['a short JSON answer: brackets on their own lines', '[\n  {\n    "a": 1\n  }\n]', 'ok', 'brackets are structure, not marks'],
  ['an answer with rules between its lines', 'Sure.\n\n---\n\nDone.\n\n***', 'ok', 'lines with words dilute the rules'],
  ['a product title after a price table', PRODUCT_TITLE, 'ok', 'a title strung of capitalised keywords names a product'],
  ['lower-case keywords strung in a sentence', STRUNG_KEYWORDS, /word_salad/, 'the same words without capitals are salad'],
  ['a Chinese exam answer with end tags', EXAM_ANSWER, 'ok', 'a tag glued to prose parts it; Chinese writes no space after a mark'],
  ['a test file closing nested callbacks', nestedTests(7), 'ok', 'closing brackets that close what the text opened are structure'],
  [
    'closing brackets past what was opened',
    `${healthyProse(200, 5)}\n${'})\n'.repeat(30)}`,
    /punctuation_flood/,
    'closers that close nothing are a flood',
  ],
  [
    'control chars in the string literals of a test',
    CONTROLS_IN_LITERALS.replace(/\\u00([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'ok',
    'a control char quoted in code is a fixture',
  ],
  ['control chars strewn in prose words', CONTROLS_IN_PROSE, /gibberish/, 'outside a literal they are a broken decode'],
  ['a package.json chaining npm scripts with &&', NPM_SCRIPTS, 'ok', 'commands parted by && are no run-on list'],
  ['a help text kept as one JSON string', HELP_JSON, 'ok', 'the escape \\n is a line break'],
  ['tests of host names with labels in two scripts', HOST_TESTS, 'ok', 'a dot parts the labels of a name, no letters glued'],
  ['a one-line code answer', '```js\nconst a = 1;\n```', 'ok', 'a code block'],
  ['a short output of empty code fences', ' ```\n```\n```\n```\n```\n', /gibberish/, 'a short output is judged whole'],
  ['a short output of # and !', '#\n!!\n##\n!!!\n#\n!', /gibberish/, 'marks alone on every line'],
  ['a flood of &nbsp; at the end', `${healthyProse(600, 4)}${'&nbsp;'.repeat(400)}`, /whitespace_flood/, 'read as the whitespace it is'],
  ['C prototypes whose parameters have no names', PROTOTYPES, 'ok', 'a star then a comma is a pointer declarator, a notation'],
  [
    'operators named in a list, each then a comma',
    'The arithmetic operators are +, -, *, / and %. The comparison operators are ==, !=, <, <=, > and >=. The logical ones are &&, || and !.',
    'ok',
    'an operator then a comma names it, a notation',
  ],
  [
    'the operators of C by precedence',
    'In C, the operators are grouped by precedence:\n\n1. Postfix: ++, --, (), [], ->\n2. Unary: ++, --, +, -, !, ~, *, &\n3. Multiplicative: *, /, %\n4. Additive: +, -\n5. Shift: <<, >>\n6. Relational: <, <=, >, >=\n7. Equality: ==, !=\n8. Bitwise: &, ^, |\n9. Logical: &&, ||\n10. Assignment: =, +=, -=, *=, /=, %=',
    'ok',
    'a list of operators, line by line',
  ],
  [
    'prose strewn with marks that are no operator, then a comma',
    healthyProse(900, 3).replace(/(\S+ \S+) /g, '$1 *-, '),
    /gibberish/,
    'marks no language or operator writes together stay noise',
  ],
  [
    'prose strewn with stars and a dot',
    healthyProse(900, 3).replace(/(\S+ \S+) /g, '$1 **. '),
    /gibberish/,
    'marks alone with a dot are still marks where no language puts them',
  ],
  [
    'an answer explaining a format with a placeholder per column',
    'The row format is %-10s %-10s %-10s %-10s %-10s and each field is padded to ten chars.',
    'ok',
    'placeholders are the slots of a template, as many as its columns',
  ],
  ['option help of eleven slots', `Usage: %s [option...] ${'%s, --'.repeat(11)}%s`, 'ok', 'a format names its columns one by one'],
  ['placeholders said thirty times', `Here you go: ${'%s|'.repeat(30)}`, /word_loop/, 'from slotLoopCopies (24) they are a loop'],
  ['the Morse alphabet', MORSE, 'ok', 'dots and dashes with a dash among them are a notation, not marks doubled'],
  ['a DNA sequence in lines of 74 letters', DNA, 'ok', 'a run of four letters is a sequence, not words glued'],
  ['lines of emoji', EMOJI, 'ok', 'an emoji says something: a line of them is no line of marks'],
  [
    'a flood of one letter still fails',
    `${healthyProse(300, 4)} ${'a'.repeat(400)}`,
    /char_flood|word_loop|gibberish/,
    'one letter is no sequence',
  ],
  ['the squares of 1 to 20 in words', SQUARES, 'ok', 'a figure that changes from line to line, not as a counter does, makes a table'],
  ['a conversion table in words', CELSIUS, 'ok', 'two figures a line, each its own step: data, not a counter'],
  ['a multiplication quiz', QUIZ, 'ok', 'operands and answers are figures'],
  ['one step said again with its counter rising', STEPS, /line_loop|phrase_loop/, 'a counter alone makes no table'],
  [
    'a list in HTML of numbered placeholder items',
    `<ul>\n${Array.from({ length: 15 }, (_, i) => `  <li>Item ${i + 1}</li>`).join('\n')}\n</ul>`,
    'ok',
    'in markup a number is a value, each a new thing: a counter is no new thing only in prose',
  ],
  [
    'sample records in JSON',
    JSON.stringify(
      Array.from({ length: 10 }, (_, i) => ({ id: i + 1, active: true, role: 'user' })),
      null,
      2,
    ),
    'ok',
    'an id that rises is a value of data',
  ],
  [
    'services in YAML',
    Array.from({ length: 12 }, (_, i) => `  - name: service-${i + 1}\n    replicas: 2\n    image: nginx:1.25`).join('\n'),
    'ok',
    'copies alike only with their numbers masked are no loop where they hold no function word',
  ],
  [
    'lines of a server log',
    Array.from(
      { length: 15 },
      (_, i) => `2024-05-01T12:00:${String(i + 1).padStart(2, '0')}Z INFO request handled status=200 path=/health`,
    ).join('\n'),
    'ok',
    'a timestamp that rises is a value of data',
  ],
  ['a vector of zeros', 'The zero vector in R^8 is (0, 0, 0, 0, 0, 0, 0, 0).', 'ok', 'one number said again in a closed list'],
  ['counting to ten', 'Counting to 10: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10.', 'ok', 'a count that closes is a list of numbers'],
  ['the divisors of 12', 'The divisors of 12 are 1, 2, 3, 4, 6, and 12.', 'ok', 'a counter is no loop where it is all a unit says'],
  [
    'years in a sentence',
    `Years covered: ${Array.from({ length: 24 }, (_, i) => 2001 + i).join(', ')}.`,
    'ok',
    'however long, a closed count is a list',
  ],
  ['chapters named by number', 'Chapters 1, 2, 3, 4, 5, 6 cover the basics; the rest is practice.', 'ok', 'a count with words after it'],
  [
    'an array of indices in code',
    `const table = [${Array.from({ length: 32 }, (_, i) => i).join(', ')}];`,
    'ok',
    'a bracket and a semicolon close the count',
  ],
  [
    'a count broken off over most of the output',
    `2024 to 2025 - ${Array.from({ length: 22 }, (_, i) => 2026 + i).join(' - ')} - `,
    /word_loop/,
    'counting on to the limit instead of answering: from countLoopCoverage (0.5), ending on its mark',
  ],
  // its numbers number the lines, but 8 of every 15 lines carry one and each goes up by 15 from copy to copy: more than a
  // counter of a unit of 8 numbers steps, so they read as figures
  ['FizzBuzz from 1 to 40', FIZZBUZZ, 'ok', 'with digits masked it goes round every 15 lines, its numbers as figures'],
  [
    'a flood of &amp; at the end',
    `${healthyProse(600, 4)}${'&amp;'.repeat(400)}`,
    /word_loop|line_loop|flood/,
    'other references stay chars',
  ],
];

describe('healthy structure, normalised before it is judged', () => {
  for (const [name, text, want, why] of ROWS) {
    it(`${name}: ${want === 'ok' ? 'ok' : want.source} (${why})`, () => {
      const a = analyzeText(text);
      if (want === 'ok') assert.equal(a.verdict, 'ok', a.reasons.join(' | '));
      else {
        assert.equal(a.verdict, 'fail', a.reasons.join(' | '));
        assert.ok(
          a.findings.some((f) => f.severity === 'fail' && want.test(f.kind)),
          a.reasons.join(' | '),
        );
      }
    });
  }
});
