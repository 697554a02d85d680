import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FUNCTION_WORDS } from '../../../src/core/functionWords.js';
import { Tokenizer } from '../../../src/core/text/tokenizer.js';
import {
  F_BLANK,
  F_CODE,
  F_FUNC,
  F_GAP,
  F_LINE,
  F_NEW,
  F_NUM,
  F_SPACE,
  K_MARK,
  K_PUNCT,
  K_SOLO,
  K_WORD,
  KIND_MASK,
} from '../../../src/core/text/tokens.js';
import { randomSplit } from '../../helpers/detectorHarness.js';

function tokens(parts: readonly string[], snapshotEvery = 0): string[] {
  const t = new Tokenizer();
  parts.forEach((p, i) => {
    t.push(p);
    if (snapshotEvery > 0 && i % snapshotEvery === 0) t.snapshot(() => t.tokens.n);
  });
  return t.snapshot(() => {
    const b = t.tokens;
    const out: string[] = [];
    for (let i = 0; i < b.n; i++) out.push(`${b.start[i]}-${b.end[i]}:${b.id[i]}:${b.info[i]}`);
    out.push(`spaces ${t.spaces.n}/${t.spaces.total}, bytes ${t.bytes}`);
    return out;
  });
}

function read(text: string): Array<{ text: string; kind: number; info: number }> {
  const t = new Tokenizer();
  t.push(text);
  return t.snapshot(() => {
    const b = t.tokens;
    return Array.from({ length: b.n }, (_, i) => ({
      text: text.slice(b.start[i]!, b.end[i]!),
      kind: b.info[i]! & KIND_MASK,
      info: b.info[i]!,
    }));
  });
}

const TEXTS = [
  'Plain prose, with a comma; a number 2009.06.11 and 3.14, then an end. Ünïcödé wörds.',
  'Code:\n```js\nconst x = f(1, 2);\n```\nand `inline` and https://example.com/a?b=c then <div class="x">text</div> <!-- note -->.',
  '中文句子，没有空格。日本語の文も。Emoji 😀🎈 and a lone surrogate \ud83d and more.',
  'Blank\n\n\nlines\t\tand   spaces ' + ' '.repeat(40) + 'end 1,000,000 12:30:15 1..2',
  '&ensp;&ensp;A poem&nbsp;line, AT&amp;T &lt;b&gt; &#160;x&#x2003;y &unknown; & ; &&nbsp; 5&#32;6 &#xZZ; &ensp',
  // what the scan takes whole when a delta holds it (an ASCII word, the one space after it, a run of whitespace) beside
  // what it cannot (a word going on past ASCII, a number before a separator, a word longer than its key): one char at a
  // time takes none of it whole, so the split test compares the two ways
  'See http://example.com/a b, <a href=x>y</a> z `code` w and\r\n\r\nnext. ' +
    'Long'.repeat(20) +
    ' naïve Zürich 12,5x 3.14. 1,000 rows_of_data X9f2 THE The word&nbsp;word <!-- c --> d ``x`` e \t \n \n\n\nend',
];

describe('Tokenizer', () => {
  it('gives the same tokens for any split of the text, snapshots between pushes changing nothing', () => {
    for (const text of TEXTS) {
      const whole = tokens([text]);
      for (const seed of [1, 2, 3, 4]) assert.deepEqual(tokens(randomSplit(text, seed, 1 + seed * 3)), whole, `seed ${seed}`);
      assert.deepEqual(tokens([...text], 3), whole, 'one char at a time, with snapshots');
    }
  });

  it('reads character references of whitespace as whitespace, other references as they are', () => {
    const words = (text: string) => read(text).map((t) => t.text);
    // the same tokens at the same places as spaces would give
    assert.deepEqual(words('&ensp;&ensp;The rose&nbsp;is red,&#160;&#x2003;the sky'), ['The', 'rose', 'is', 'red', ',', 'the', 'sky']);
    assert.deepEqual(words('AT&amp;T &lt;b&gt;'), ['AT', '&', 'amp', ';', 'T', '&', 'lt', ';', 'b', '&', 'gt', ';']);
    // a reference that is none (unknown, not closed, not whitespace by its number) is tokenized as written
    assert.deepEqual(words('&unknown; &ensp x &#65;'), ['&', 'unknown', ';', '&', 'ensp', 'x', '&', '#', '65', ';']);
    assert.deepEqual(words('a&&nbsp;b'), ['a', '&', 'b']);
    const t = new Tokenizer();
    t.push('one&ensp;&ensp;two');
    t.snapshot(() => assert.equal(t.spaces.total, 12));
  });

  it('reads numbers with their separators as one token, and a full stop after them as punctuation', () => {
    const t = read('In 2009.06.11 it cost 1,000 at 12:30. Then 3.');
    const nums = t.filter((x) => x.info & F_NUM).map((x) => x.text);
    assert.deepEqual(nums, ['2009.06.11', '1,000', '12:30', '3']);
    assert.equal(t.at(-1)!.text, '.');
  });

  it('marks code, markup and addresses', () => {
    const t = read('Say `foo bar` then\n```\nlet x\n```\nsee https://a.b/c and <b>bold</b> ok');
    const code = t.filter((x) => x.info & F_CODE).map((x) => x.text);
    for (const w of ['foo', 'bar', 'let', 'x', 'c']) assert.ok(code.includes(w), `${w} is code: ${code.join(' ')}`);
    for (const w of ['Say', 'then', 'see', 'ok']) assert.ok(!code.includes(w), `${w} is prose`);
    assert.ok(
      t.some((x) => x.text === 'b' && x.kind === K_MARK),
      'a tag name is a mark',
    );
  });

  it('flags what whitespace came before a token, first occurrences and function words', () => {
    const t = read('The cat\nsat.\n\nThe end');
    const by = (w: string, n = 0) => t.filter((x) => x.text === w)[n]!;
    assert.ok(by('cat').info & F_SPACE);
    assert.ok(by('sat').info & F_LINE);
    assert.ok(by('The', 1).info & F_BLANK);
    assert.ok(by('The').info & F_NEW);
    assert.ok(!(by('The', 1).info & F_NEW), 'case folded: the second "The" is not new');
    assert.ok(by('The').info & F_FUNC);
    assert.ok(!(by('cat').info & F_FUNC));
  });

  it('flags a gap before a token: two whitespace chars or more, or a tab, as the text between the tokens shows, for any split', () => {
    const text = 'a b  c\td \te\n f\ng&nbsp;h&#32;i\u3000j\u00a0\u00a0k, l,  m.\t\tn';
    const gapOf = (parts: readonly string[]) => {
      const t = new Tokenizer();
      for (const p of parts) t.push(p);
      return t.snapshot(() => {
        const b = t.tokens;
        return Array.from({ length: b.n }, (_, i) => `${text.slice(b.start[i]!, b.end[i]!)}:${b.info[i]! & F_GAP ? 1 : 0}`);
      });
    };
    const whole = gapOf([text]);
    // what the old reading asked of the text: the chars between a token and the one before, two or more or a tab
    const t = new Tokenizer();
    t.push(text);
    const want = t.snapshot(() => {
      const b = t.tokens;
      return Array.from({ length: b.n }, (_, i) => {
        const gap = i > 0 && (b.start[i]! - b.end[i - 1]! >= 2 || text.charCodeAt(b.end[i - 1]!) === 0x09);
        return `${text.slice(b.start[i]!, b.end[i]!)}:${gap ? 1 : 0}`;
      });
    });
    assert.deepEqual(whole, want);
    assert.deepEqual(
      whole.filter((x) => x.endsWith(':1')),
      ['c:1', 'd:1', 'e:1', 'f:1', 'h:1', 'i:1', 'k:1', 'm:1', 'n:1'],
    );
    for (const seed of [1, 2, 3]) assert.deepEqual(gapOf(randomSplit(text, seed, 2 + seed)), whole, `seed ${seed}`);
    assert.deepEqual(gapOf([...text]), whole, 'one char at a time');
  });

  it('flags every function word of every language as one, in lower case, capitalized and in capitals, and words beside them as none', () => {
    for (const w of FUNCTION_WORDS) {
      for (const form of [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]) {
        if (form.toLowerCase() !== w) continue; // a capital that lower-cases to other chars
        const [tok] = read(form);
        assert.equal(tok!.text, form);
        assert.ok(tok!.info & F_FUNC, `"${form}" is a function word`);
      }
      for (const other of [w + 'x', 'x' + w, w + 'é', w.slice(1)]) {
        if (FUNCTION_WORDS.has(other) || other === '') continue;
        const [tok] = read(other);
        if (tok!.text !== other) continue;
        assert.ok(!(tok!.info & F_FUNC), `"${other}" is no function word`);
      }
    }
    // a final capital sigma lower-cases to "ς" as a whole word, to "σ" alone: no function word has either
    assert.ok(!(read('ΣΑΣ')[0]!.info & F_FUNC));
  });

  it('splits scripts written without spaces into one token a letter', () => {
    const t = read('中文abc');
    assert.deepEqual(
      t.map((x) => [x.text, x.kind]),
      [
        ['中', K_SOLO],
        ['文', K_SOLO],
        ['abc', K_WORD],
      ],
    );
    assert.equal(read('!?')[0]!.kind, K_PUNCT);
  });

  it('allocates by need: a short text costs a few hundred bytes of token rows', () => {
    const t = new Tokenizer(200);
    t.push('A short answer of a few words.');
    // room for one token in 3 chars of the 200 expected (67 rows of 16 bytes), not the megabyte a long text takes
    assert.ok(t.tokens.id.length <= 80, `${t.tokens.id.length} rows`);
  });
});
