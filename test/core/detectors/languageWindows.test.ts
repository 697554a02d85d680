/**
 * The window reading's script counts (windows.ts): a window's sums are made from its two halves,
 * and only the scripts a half has letters of are added and compared. The dominant script of a
 * window decides whether letters of two scripts glued count as malformed, so these windows are
 * built to change their malformed share when a half's scripts are lost in the join or when a tie
 * between two scripts is broken the other way (the lower script number wins, as dominant() does).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SC_CJK, SC_CYRILLIC, SC_LATIN } from '../../../src/core/charClass.js';
import { C_GLUE, type Chunks, emptyChunks } from '../../../src/core/detectors/language/chunks.js';
import { readWindows } from '../../../src/core/detectors/language/windows.js';

/** Chunks of the given scripts and letters, in order; the first one glues two scripts. */
function chunks(parts: Array<[script: number, letters: number, count: number]>): Chunks {
  const c = emptyChunks(64);
  for (const [script, letters, count] of parts) {
    for (let k = 0; k < count; k++) {
      const i = c.n++;
      c.start[i] = i * 10;
      c.flags[i] = i === 0 ? C_GLUE : 0;
      c.script[i] = script;
      c.letters[i] = letters;
      c.scriptLetters[i] = letters;
      c.key[i] = i;
    }
  }
  return c;
}

describe('language windows: the scripts of a window', () => {
  it('adds the Chinese letters of both halves: together they outweigh the Latin ones, so glued scripts are normal', () => {
    // first half: 30 Latin letters (one chunk glued) and 18 Chinese; second half: 24 Chinese (42 in all)
    const w = readWindows(
      chunks([
        [SC_LATIN, 5, 6],
        [SC_CJK, 3, 6],
        [SC_CJK, 2, 12],
      ]),
    );
    assert.equal(w.windows, 1);
    assert.equal(w.malformed, 0);
    assert.equal(w.cjk, true);
  });

  it('breaks a tie between two scripts toward the lower script number (Latin over Chinese)', () => {
    // 30 Latin letters and 12 Chinese characters, each of which writes two and a half letters (writtenLetters.ts): a tie,
    // Latin dominates and the glued chunk (5 of 42 letters) is malformed
    const w = readWindows(
      chunks([
        [SC_LATIN, 5, 6],
        [SC_CJK, 1, 12],
      ]),
    );
    assert.equal(w.windows, 1);
    assert.equal(w.malformed, 5 / 42);
    assert.equal(w.malformedAt, 0);
  });

  it('counts a Chinese character as the letters it writes: 13 of them outweigh 30 Latin letters', () => {
    const w = readWindows(
      chunks([
        [SC_LATIN, 5, 6],
        [SC_CJK, 1, 13],
      ]),
    );
    assert.equal(w.malformed, 0);
  });

  it('forgets the scripts of a window once the next one is read (counts reused from call to call)', () => {
    // a Chinese text read first leaves its counts behind; a Latin and Cyrillic text read next must not see them
    readWindows(chunks([[SC_CJK, 50, 30]]));
    const w = readWindows(
      chunks([
        [SC_LATIN, 5, 12],
        [SC_CYRILLIC, 5, 12],
      ]),
    );
    assert.equal(w.cjk, false);
    assert.ok(w.malformed > 0);
  });
});
