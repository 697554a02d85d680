/**
 * A rough stand-in for a BPE tokenizer: a word with its leading space, digits in
 * groups of up to three, short punctuation runs, whitespace runs. Long words and
 * long whitespace runs are split so pieces average about four characters, as real
 * tokenizers do on English prose. Joining the pieces always gives back the text.
 */
const PIECE = / ?\p{L}+| ?\p{N}{1,3}| ?[^\s\p{L}\p{N}]{1,4}|\s+(?!\S)|\s+/gu;

const MAX_WORD = 10;
const WORD_PIECE = 6;
const MAX_SPACE = 8;

export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    if (/^\s+$/u.test(piece)) {
      for (let i = 0; i < piece.length; i += MAX_SPACE) tokens.push(piece.slice(i, i + MAX_SPACE));
    } else if (piece.length <= MAX_WORD) {
      tokens.push(piece);
    } else {
      splitInto(piece, WORD_PIECE, tokens);
    }
  }
  return tokens;
}

/** Splits by code point so a piece never ends inside a surrogate pair. */
function splitInto(piece: string, size: number, out: string[]): void {
  const chars = Array.from(piece);
  let first = size + (chars[0] === ' ' ? 1 : 0);
  for (let i = 0; i < chars.length; ) {
    out.push(chars.slice(i, i + first).join(''));
    i += first;
    first = size;
  }
}
