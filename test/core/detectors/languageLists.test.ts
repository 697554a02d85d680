/**
 * The run-on list reading (runOnList.ts) on chunks made by hand: where a run of one-word items
 * starts and ends (a function word, a line, a long chunk, code), and its repeats. The reading
 * takes each chunk's part in a run from its flag bits without branches; these rows pin where
 * the longest run starts, which a slip in that arithmetic moves.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SC_LATIN } from '../../../src/core/charClass.js';
import { C_CODEISH, C_FUNC, C_LINE, C_STOP, type Chunks, emptyChunks } from '../../../src/core/detectors/language/chunks.js';
import { readRunOnList } from '../../../src/core/detectors/language/runOnList.js';

/** One chunk per entry: a word (its key), or a function word, a line start, code, a long chunk or a word that ends a sentence. */
type Part = number | 'func' | 'code' | 'long' | { line: number } | { stop: number };

function chunks(parts: Part[]): Chunks {
  const c = emptyChunks(64);
  for (const p of parts) {
    const i = c.n++;
    c.start[i] = i * 10;
    c.script[i] = SC_LATIN;
    c.letters[i] = p === 'long' ? 31 : 4;
    c.scriptLetters[i] = c.letters[i]!;
    c.flags[i] = p === 'func' ? C_FUNC : p === 'code' ? C_CODEISH : typeof p === 'object' ? ('line' in p ? C_LINE : C_STOP) : 0;
    c.key[i] = typeof p === 'number' ? p : typeof p === 'object' ? ('line' in p ? p.line : p.stop) : 1000 + i;
  }
  return c;
}

describe('language run-on lists', () => {
  it('finds the longest run after a function word, with its repeats', () => {
    const l = readRunOnList(chunks(['func', 1, 2, 1, 'func', 3, 'long', { line: 4 }, 5]));
    assert.deepEqual(l, { listItems: 3, listRepeats: 1, listAt: 10 });
  });

  it('finds the longest run when it ends the text', () => {
    const l = readRunOnList(chunks(['func', 1, 2, 'code', 3, 4, 5, 3, 4]));
    assert.deepEqual(l, { listItems: 5, listRepeats: 2, listAt: 40 });
  });

  it('starts a run at a line and ends it at a long chunk', () => {
    const l = readRunOnList(chunks([1, 2, { line: 3 }, 4, 5, 6, 'long', 7]));
    assert.deepEqual(l, { listItems: 4, listRepeats: 0, listAt: 20 });
  });

  it('ends a run after a word that ends a sentence: a paragraph with no listed function word is sentences, not one list', () => {
    // two sentences of a language the lists do not cover, on one line: 1 2 3. 1 2 3 4. (the second says the first again)
    const l = readRunOnList(chunks([1, 2, { stop: 3 }, 1, 2, 3, { stop: 4 }]));
    assert.deepEqual(l, { listItems: 4, listRepeats: 0, listAt: 30 });
  });

  it('reads no run in function words alone', () => {
    assert.deepEqual(readRunOnList(chunks(['func', 'func'])), { listItems: 0, listRepeats: 0, listAt: -1 });
  });
});
