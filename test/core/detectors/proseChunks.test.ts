/**
 * The prose reading's chunks around fenced code blocks (wordShapes.ts). The reading passes over
 * a block's tokens without reading each as a chunk of code: what it keeps must be what reading
 * them token by token keeps. The oracle is the same reading of the same tokens with the fence
 * bit cleared, where every token of a block is read as the code it is (F_CODE stays).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { C_AFTER, C_BREAK, C_LINE, type Chunks } from '../../../src/core/detectors/language/chunks.js';
import { readChunks } from '../../../src/core/detectors/language/wordShapes.js';
import { Tokenizer } from '../../../src/core/text/tokenizer.js';
import { SC_CJK, SC_LATIN } from '../../../src/core/charClass.js';
import { F_CODE, F_FENCE, F_LINE, F_SPACE, K_PUNCT, K_SOLO, K_WORD, SCRIPT_SHIFT, TokenBuffer } from '../../../src/core/text/tokens.js';
import { rng } from '../../corpus/generate.js';

/** The chunks as plain arrays (the reading's set is overwritten by the next one). */
function plain(c: Chunks) {
  const of = (a: Int32Array | Uint16Array | Uint8Array) => Array.from(a.subarray(0, c.n));
  return {
    n: c.n,
    start: of(c.start),
    flags: of(c.flags),
    script: of(c.script),
    letters: of(c.letters),
    scriptLetters: of(c.scriptLetters),
    key: of(c.key),
    noise: of(c.noise),
  };
}

/** The prose chunks read from `t`, and from a copy of it with no token marked as inside a fence. */
function bothFromTokens(t: TokenBuffer, text: string): { fast: ReturnType<typeof plain>; slow: ReturnType<typeof plain> } {
  const fast = plain(readChunks(t, text));
  const unfenced = new TokenBuffer(t.n);
  for (let i = 0; i < t.n; i++) unfenced.push(t.start[i]!, t.end[i]!, t.id[i]!, t.info[i]! & ~F_FENCE);
  return { fast, slow: plain(readChunks(unfenced, text)) };
}

/**
 * Tokens the tokenizer may never give, with their text: fences that start and end anywhere,
 * escapes ("\n", "\t") and glued '>' at their edges, line breaks and spaces between any two.
 */
function randomTokens(r: () => number): { t: TokenBuffer; text: string } {
  const t = new TokenBuffer();
  let text = '';
  let fence = false;
  const n = 3 + Math.floor(r() * 50);
  for (let i = 0; i < n; i++) {
    if (r() < 0.15) fence = !fence;
    let info = fence ? F_CODE | F_FENCE : r() < 0.1 ? F_CODE : 0;
    const gap = r();
    if (i > 0 && gap < 0.45) {
      info |= F_SPACE;
      if (gap < 0.15) info |= F_LINE;
      text += gap < 0.15 ? '\n' : ' ';
    }
    const kind = r();
    const at = text.length;
    if (kind < 0.2) {
      text += '\\';
      t.push(at, at + 1, 0x5c, info | K_PUNCT);
    } else if (kind < 0.3) {
      text += '>';
      t.push(at, at + 1, 0x3e, info | K_PUNCT);
    } else if (kind < 0.45) {
      const c = ',.;!|'[Math.floor(r() * 5)]!;
      text += c;
      t.push(at, at + 1, c.charCodeAt(0), info | K_PUNCT);
    } else if (kind < 0.55) {
      text += '中';
      t.push(at, at + 1, 200, info | K_SOLO | (SC_CJK << SCRIPT_SHIFT));
    } else {
      const w = ['n', 't', 'r', 'word', 'Then', 'of'][Math.floor(r() * 6)]!;
      text += w;
      t.push(at, at + w.length, 300 + w.length, info | K_WORD | (SC_LATIN << SCRIPT_SHIFT));
    }
  }
  return { t, text };
}

/** The prose chunks of `text`, and those read with no token marked as inside a fence (the tokens read one by one). */
function bothReadings(text: string): { fast: ReturnType<typeof plain>; slow: ReturnType<typeof plain>; fenced: boolean } {
  const tk = new Tokenizer(text.length);
  tk.push(text);
  return tk.snapshot(() => {
    const t = tk.tokens;
    const c = readChunks(t, text);
    const fast = plain(c);
    const fenced = c.fenced;
    const unfenced = new TokenBuffer(t.n);
    for (let i = 0; i < t.n; i++) unfenced.push(t.start[i]!, t.end[i]!, t.id[i]!, t.info[i]! & ~F_FENCE);
    return { fast, slow: plain(readChunks(unfenced, text)), fenced };
  });
}

const PIECES = [
  'word',
  'the',
  'Quick',
  'of',
  ',',
  '.',
  '!',
  ' ',
  ' ',
  '\n',
  '\n\n',
  '\n```\n',
  '\n```js\n',
  '```',
  '\\n',
  '\\t',
  '\\',
  '>',
  '>a',
  '<b>',
  '`x`',
  '日本',
  '中文',
  'a\\nb',
  '- ',
  '|',
  '...',
];

describe('prose chunks around fenced blocks (wordShapes.ts)', () => {
  it('keep a break before a block, and the line and the item after it', () => {
    const text = 'Run this command first:\n```sh\nnpm install --save fastify\n```\nthen start the server.';
    const { fast, fenced } = bothReadings(text);
    assert.equal(fenced, true);
    const at = (w: string) => fast.start.indexOf(text.indexOf(w));
    assert.ok(fast.flags[at('first:')]! & C_BREAK, 'the chunk before the block is followed by a break');
    assert.ok(fast.flags[at('then')]! & C_LINE, 'the chunk after the block starts a line');
    assert.ok(fast.flags[at('then')]! & C_AFTER, 'the chunk after the block follows a chunk of code');
    assert.equal(at('install'), -1, 'no chunk of the block is kept');
  });

  it('let an escaped line break at the end of a block start the next line', () => {
    for (const text of ['Use it so:\n```\nprint("a\\n")\n``` next words here', 'Use it so:\n```\nx = "a" \\n\n``` next words here']) {
      const { fast, slow } = bothReadings(text);
      assert.deepEqual(fast, slow, JSON.stringify(text));
    }
  });

  it('are those of the block read token by token, for texts of fences, escapes, tags and scripts mixed', () => {
    const r = rng(8);
    for (let k = 0; k < 600; k++) {
      const parts: string[] = [];
      const n = 5 + Math.floor(r() * 60);
      for (let i = 0; i < n; i++) parts.push(PIECES[Math.floor(r() * PIECES.length)]!);
      const text = parts.join('');
      const { fast, slow } = bothReadings(text);
      assert.deepEqual(fast, slow, JSON.stringify(text));
    }
  });

  it('are those of the tokens read one by one, for tokens fenced, escaped and glued anyhow', () => {
    const r = rng(9);
    for (let k = 0; k < 3000; k++) {
      const { t, text } = randomTokens(r);
      const { fast, slow } = bothFromTokens(t, text);
      assert.deepEqual(fast, slow, JSON.stringify(text));
    }
  });
});
