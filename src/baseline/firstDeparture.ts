import type { SampleOutput } from './baselineFormat.js';

/** Characters of an excerpt: the shared text before a departure, and each side's from it. */
const CONTEXT_CHARS = 40;
const SIDE_CHARS = 60;
const SIDE_TOKENS = 12;

export type OutputComparison =
  | { identical: true; sample: number; comparedTokens: number }
  | {
      identical: false;
      sample: number;
      /** The first token (0-based) where the outputs differ; also the length of the shorter output when one only ends sooner. */
      tokenIndex: number;
      /** Its offset in characters into the output. */
      charOffset: number;
      /** The shared text just before the departure. */
      context: string;
      /** Each side from the departure on ("" where that output ended). */
      before: string;
      after: string;
    };

const tail = (s: string, n: number) => (s.length > n ? `…${s.slice(s.length - n)}` : s);
const head = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Where an output at temperature 0 first departs from the baseline's, token by token. Two
 * outputs that agree as far as both were kept are identical: one cut at MAX_OUTPUT_TOKENS says
 * nothing of what came after; one that ends sooner, uncut, departs where it ends.
 */
export function firstDeparture(before: SampleOutput, after: SampleOutput): OutputComparison {
  const a = before.tokens;
  const b = after.tokens;
  const shared = Math.min(a.length, b.length);
  let i = 0;
  let chars = 0;
  while (i < shared && a[i] === b[i]) chars += a[i++]!.length;
  const endsTogether = a.length === b.length || (i === shared && (a.length < b.length ? before.truncated : after.truncated));
  if (i === shared && endsTogether) return { identical: true, sample: before.sample, comparedTokens: shared };
  const side = (tokens: string[]) => head(tokens.slice(i, i + SIDE_TOKENS).join(''), SIDE_CHARS);
  return {
    identical: false,
    sample: before.sample,
    tokenIndex: i,
    charOffset: chars,
    context: tail(a.slice(Math.max(0, i - SIDE_TOKENS), i).join(''), CONTEXT_CHARS),
    before: side(a),
    after: side(b),
  };
}
