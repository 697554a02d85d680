/**
 * Text as tokens for comparing two outputs: a word with the spaces before it, a run of digits,
 * one mark of punctuation with the spaces before it, a run of line breaks. Joining the tokens
 * gives the text back, so a token index maps to a character offset. Near a server's token
 * count on prose, never equal to it: the comparison needs a stable split, not the model's.
 */
const TOKEN = /[^\S\n]*[\p{L}\p{M}]+|[^\S\n]*\p{N}+|[^\S\n]*[^\s\p{L}\p{M}\p{N}]|\n+|[^\S\n]+/gu;

/** The first `max` tokens of `text`, and how many it has in all. */
export function outputTokens(text: string, max: number): { tokens: string[]; total: number } {
  const tokens: string[] = [];
  let total = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (total < max) tokens.push(match[0]);
    total++;
  }
  return { tokens, total };
}
