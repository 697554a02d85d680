/** Tables for the small detectors: whitespace, glued floods, stutter, special tokens. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const prose = healthyProse(800, 5);

describe('whitespace', () => {
  const table: Array<[string, string, string[]]> = [
    ['nothing', '', ['empty/fail']],
    ['only blanks', ' \n\n \t', ['empty/fail']],
    ['a flood at the end', `${prose}${' '.repeat(300)}`, ['whitespace_flood/fail']],
    ['a flood wherever it is', `${prose}${'\n'.repeat(900)}${prose}`, ['whitespace_flood/fail']],
    ['a padded cell the text moves on from', `${prose}${' '.repeat(250)}${prose}`, ['whitespace_flood/warn']],
    ['mostly whitespace', `{${'    \n\n  '.repeat(10)}}`, ['whitespace_flood/fail']],
    ['indented code', `${prose}\n${'        x = 1\n'.repeat(20)}`, []],
    ['a brace, then blank lines', '{\n\n\n', ['empty/fail']],
    ['an open code fence, then blank lines', '```\n\n \n', ['empty/fail']],
    ['a JSON answer cut after its first tokens', '[\n   {\n    ', []],
    ['an empty object', '{}', []],
    ['an empty list over two lines', '[\n]', []],
    ['a one-digit answer and blank lines', '4\n\n\n', []],
    ['an emoji answer and a blank line', '\u{1F44D}\n\n', []],
    [
      'digits and a stray char between runs of blank lines',
      '7 3. 40000000000\n\n\n90000000000007\n\n\n\n5\n5\n\n\n\n\nx',
      ['whitespace_flood/fail'],
    ],
    ['a few words between runs of blank lines', 'Sure\n\n\n\nhere\n\n\nit is', ['whitespace_flood/fail']],
    [
      'a short poem with a blank line after every line',
      'Frost on the window\n\nkettle hums in the dark\n\nthe cat wakes first\n\nthen me',
      [],
    ],
    ['three blank lines between two short lines', 'Yes.\n\n\n\nNo.', []],
    ['a number with blank lines at both ends', '\n\n\n\n42\n\n\n\n\n', []],
    ['a longer text spaced by runs of blank lines is left to the run rules', Array(6).fill(prose).join('\n\n\n\n'), []],
  ];
  for (const [name, text, want] of table) it(name, () => assert.deepEqual(verdicts(detect('whitespace', text).findings), want));
});

describe('glued floods', () => {
  const table: Array<[string, string, string[]]> = [
    ['one char glued', `${prose} ${'G'.repeat(120)}`, ['char_flood/fail!']],
    ['a syllable glued', `${prose} ${'den'.repeat(30)}`, ['word_loop/fail']],
    ['a code glued', `${prose} ${'x005F_'.repeat(12)}`, ['word_loop/fail']],
    ['a laugh', `${prose} hahahaha`, []],
    ['zeros of an address', `${prose} 0x0000000000000000`, []],
    ['a flood the text moves on from', `${prose} ${'G'.repeat(60)} and then more words.`, []],
    ['underscores to the end, over two lines of them', `${prose} ${'_'.repeat(400)}`, ['char_flood/fail']],
    ['underscores past four times their limit are certain', `${prose} ${'_'.repeat(700)}`, ['char_flood/fail!']],
    ['a blank to fill in and a rule of underscores', `${prose}\n\nSignature: ${'_'.repeat(40)}\n\n${'_'.repeat(80)}`, []],
  ];
  for (const [name, text, want] of table) it(name, () => assert.deepEqual(verdicts(detect('glued', text).findings), want));
});

describe('stutter', () => {
  it('every word twice, through a stretch, fails', () => {
    const words = prose.split(' ').slice(0, 60);
    assert.deepEqual(verdicts(detect('stutter', words.flatMap((w) => [w, w]).join(' ')).findings), ['stutter/fail']);
  });
  it('macros that name themselves, after a tab or a space, and a table whose neighbouring cells agree are no stutter', () => {
    const names = [
      'UP',
      'BROADCAST',
      'DEBUG',
      'LOOPBACK',
      'POINTOPOINT',
      'RUNNING',
      'NOARP',
      'PROMISC',
      'ALLMULTI',
      'MASTER',
      'SLAVE',
      'MULTICAST',
    ];
    const tabs = names.map((n) => `#define IFF_${n}\t\t\tIFF_${n}`).join('\n');
    const spaces = names.map((n) => `#define MSG_${n} MSG_${n}`).join('\n');
    const table = names.map((n, i) => `${n.toLowerCase()}  ${n.toLowerCase()}  ${i}`).join('\n');
    for (const text of [tabs, spaces, table]) assert.deepEqual(verdicts(detect('stutter', text).findings), [], text.slice(0, 40));
  });
  it('words of prose said twice still fail with a name of code among them', () => {
    const words = 'the value of max_retries sets how many times the client sends a request before it gives up on the server'.split(' ');
    assert.deepEqual(verdicts(detect('stutter', words.flatMap((w) => [w, w]).join(' ')).findings), ['stutter/fail']);
  });
  it('chunks of YAML said twice are stutter too', () => {
    const keys = ['team', 'replicas', 'image', 'tag', 'pull', 'region', 'labels', 'owner', 'port', 'path', 'timeout', 'retries'];
    const text = `${keys.map((k, i) => `${k}: ${k}: value${i}`).join('\n')}\n`.repeat(3);
    assert.deepEqual(verdicts(detect('stutter', text).findings), ['stutter/fail']);
  });
  it('a stretch of 22 doubled words at the very end of a long text fails: the window slides to the end', () => {
    const words =
      'the results show that the new cache layout reduces latency for most requests while memory use stays flat over the whole run'.split(
        ' ',
      );
    const text = `${prose} ${prose} ${words.flatMap((w) => [w, w]).join(' ')}.`;
    assert.deepEqual(verdicts(detect('stutter', text).findings), ['stutter/fail']);
  });
  it('every second word doubled through a stretch fails', () => {
    const words = prose.split(' ').slice(0, 90);
    assert.deepEqual(verdicts(detect('stutter', words.flatMap((w, i) => (i % 2 ? [w, w] : [w])).join(' ')).findings), ['stutter/fail']);
  });
  it('a chorus that says a few words many times counts each word for two at most', () => {
    const chorus = 'na na na na na na, hey hey hey hey, oh oh oh oh oh, goodbye';
    assert.deepEqual(verdicts(detect('stutter', `${prose} ${chorus} ${chorus} ${chorus}`).findings), []);
  });
  it('a song that doubles one word, and "that that", stay quiet', () => {
    assert.deepEqual(verdicts(detect('stutter', `${prose} na na na na, oh oh, he said that that was all.`).findings), []);
  });
  it('numbers repeated in data are no stutter', () => {
    assert.deepEqual(verdicts(detect('stutter', Array.from({ length: 80 }, () => '0 0 0 0').join(', ')).findings), []);
  });
});

describe('special tokens', () => {
  const table: Array<[string, string, string[]]> = [
    ['a leaked template', `${prose} <|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n`, ['special_tokens/fail']],
    ['one mention', `${prose} The model emits <|im_end|> at the end of its turn, and then more.`, ['special_tokens/warn']],
    ['a trailing end token', `${prose}<|im_end|>`, []],
    ['in code', `${prose} \`<|im_start|>\` and \`<|im_end|>\` and \`[PAD]\` are template tokens.`, []],
    ['a pad token glued in', ';7?!22=4C%<｜▁pad▁｜>-QX', ['special_tokens/fail']],
    ['control markers', 'We can [control_12] ing [control_88] resul [control_301] ts', ['special_tokens/fail']],
    ['broken decoding', `${prose} caf\ufffd\ufffd cr\ufffdme br\ufffdl\ufffde`, ['gibberish/fail']],
    ['unknown tokens a SentencePiece decoder wrote as ⁇', '# ⁇ ⁇ !!\n## ⁇ ⁇\n!!! ⁇', ['gibberish/fail']],
    ['one ⁇ in prose (a mention)', `${prose} The glyph ⁇ is U+2047.`, []],
    ['controls left by a broken decode, three in a line', `${prose} the\x01 cat\x02 sat\x03 down`, ['gibberish/fail']],
    // form feed and vertical tab are whitespace: page breaks of a licence text
    ['page breaks of a licence text', `${prose}\n\f\n${prose}\n\f\n${prose}\f\x0b\f\n`, []],
    // a stray control every few pages of a long document is no broken decode: they are counted within ODD_SPAN chars
    ['a stray control every 2,000 chars', Array.from({ length: 12 }, () => `${healthyProse(2000, 7)}\x07`).join('\n'), []],
    // a template's next turn written as text: the model answered, then wrote a new instruction itself
    [
      'a new instruction after the response',
      `### Instruction:\nName the largest planet.\n\n### Response:\nJupiter is the largest planet.\n\n### Instruction:\nName the smallest planet.\n\n### Response:\nMercury.`,
      ['special_tokens/fail'],
    ],
    [
      'a Japanese template that goes on',
      `${prose}\n\n### 応答:太陽系で最大の惑星は木星です。\n\n### 指示:\n最小の惑星を答えてください。`,
      ['special_tokens/fail'],
    ],
    ['a user turn after the assistant', `## Assistant: ${prose}\n\n## User: and now tell me more`, ['special_tokens/fail']],
    // healthy: the same headers in code, a template described once, a quiz and test cases (other headers)
    [
      'a template shown in a code block',
      `${prose}\n\n\`\`\`\n### Instruction:\nhi\n### Response:\nhello\n### Instruction:\nbye\n\`\`\`\n`,
      [],
    ],
    [
      'a template described once',
      `${prose}\n\n### Instruction:\nWhat the user asks goes here.\n\n### Response:\nThe model answers here.`,
      [],
    ],
    [
      'a quiz of questions and answers',
      Array.from({ length: 4 }, (_, i) => `### Question:\nWhat is ${i} + ${i}?\n\n### Answer:\n${2 * i}`).join('\n\n'),
      [],
    ],
    [
      'test cases of inputs and outputs',
      Array.from({ length: 4 }, (_, i) => `### Input:\n[${i}, ${i + 1}]\n\n### Output:\n${2 * i + 1}`).join('\n\n'),
      [],
    ],
    [
      'a screenplay with a user and an assistant, no headers',
      `User: hello there.\nAssistant: hi, how can I help?\nUser: tell me a joke.\nAssistant: ${prose}`,
      [],
    ],
  ];
  for (const [name, text, want] of table) it(name, () => assert.deepEqual(verdicts(detect('special_tokens', text).findings), want));
});
