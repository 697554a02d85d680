import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalisedCopies, WINDOW } from '../../../src/core/detectors/repetition/normalisedCopies.js';
import { normalisedTail, TAIL_WINDOW } from '../../../src/core/detectors/repetition/normalisedTail.js';
import { replayed } from '../../../src/core/detectors/repetition/replayed.js';

/**
 * A text whose last WINDOW chars are `body` (it ends in no whitespace) and whose chars just
 * before them are `before`: what lies at the start of normalisedCopies' window, inside the view.
 */
function around(before: string, body: string): string {
  assert.equal(body.length, WINDOW);
  const filler = 'Some prose before the copies, long enough that the window starts inside the view. '.repeat(40);
  return filler + before + body;
}

/** A body of WINDOW chars: `first`, then whole copies of `unit`, which ends as `first` does (so `first` is part of the loop). */
function bodyOf(first: string, unit: string): string {
  assert.equal((WINDOW - first.length) % unit.length, 0, 'whole copies');
  return first + unit.repeat((WINDOW - first.length) / unit.length);
}

/** The copies as the analysis reads them (on its view of the text's end), and as the window read alone. */
function bothWays(text: string): { shared: ReturnType<typeof normalisedCopies>; alone: ReturnType<typeof normalisedCopies> } {
  const viewFrom = Math.max(0, text.length - TAIL_WINDOW);
  const tail = normalisedTail(text.slice(viewFrom), viewFrom);
  const from = Math.max(0, text.length - WINDOW - 1024);
  const shared = normalisedCopies(text.slice(from), from, tail);
  const alone = normalisedCopies(text.slice(from), from);
  return { shared, alone };
}

describe('normalisedTail: one view of the end shared by the copy and replay readings', () => {
  const cases: Array<[string, string]> = [
    // a run of digits cut at the window's start: one mark there, where the window starts
    ['a run of digits cut at the window start', around('x9', bodyOf('1234', ' ab5'))],
    // Σ after a capital alpha folds to ς in the view, to σ in the window read alone (no cased letter before it)
    ['a capital sigma whose fold looks back past the window start', around('ΑΒΑ', bodyOf('Σ', ' αβγδεζηθις'))],
    ['a capital sigma after apostrophes at the window start', around('ΑΒΑ', bodyOf("''Σ", " αβγδεζηθικλ''ς"))],
    // a low surrogate cut from its high one: the pair folds in the view, the half stays as written alone
    ['a surrogate pair cut at the window start', around('x\ud801', bodyOf('\udc00', ' xy\u{10428}\u{10428}\u{10428}\u{10428}'))],
    // İ folds to two chars: the view of the whole end is read as written, the window alone folded
    ['a dotted capital I before the window', `İstanbul. ${around('', bodyOf('', ' Abc abc ABC abc'))}`],
    ['a dotted capital I inside the window', around('', bodyOf('İ', ' Abc abc AB'))],
  ];
  for (const [name, text] of cases) {
    it(`${name}: the same copies either way`, () => {
      const { shared, alone } = bothWays(text);
      assert.ok(alone.copies > 2, `copies ${alone.copies}`);
      assert.deepEqual(shared, alone);
    });
  }

  it('gives the replay reading the same figures as its own window', () => {
    const story = 'The keeper climbed the 12 stairs of the tower and lit the lamp for the boats. '.repeat(900);
    for (const text of [story, `İ ${story}`, story.slice(0, 5000)]) {
      const from = Math.max(0, text.length - TAIL_WINDOW);
      const tail = normalisedTail(text.slice(from), from);
      assert.deepEqual(replayed(text.slice(from), from, tail), replayed(text.slice(from), from));
    }
  });
});
