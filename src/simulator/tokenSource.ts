import { tokenize } from './tokenize.js';

/** One streamed delta. `reasoning` tokens go out as `delta.reasoning_content`. */
export interface Token {
  text: string;
  reasoning: boolean;
  /** The logprob sent with it when the client asks for logprobs; absent: an ordinary one (healthy text). */
  logprob?: number;
}

/** Pull-based, possibly endless: `null` means the text ended naturally. */
export interface TokenSource {
  next(): Token | null;
}

/** Tokens of the texts `nextText` returns, one text at a time, until it returns null. */
export function textSource(nextText: () => string | null, reasoning = false): TokenSource {
  let pending: string[] = [];
  let index = 0;
  return {
    next() {
      while (index >= pending.length) {
        const text = nextText();
        if (text === null) return null;
        pending = tokenize(text);
        index = 0;
      }
      return { text: pending[index++] as string, reasoning };
    },
  };
}

/** The same tokens over and over: the shape of a repetition collapse. */
export function cycleSource(tokens: readonly string[], reasoning = false): TokenSource {
  if (tokens.length === 0) throw new Error('cycleSource: no tokens');
  let index = 0;
  return {
    next() {
      const text = tokens[index] as string;
      index = (index + 1) % tokens.length;
      return { text, reasoning };
    },
  };
}

/** The first `count` tokens of `source`, then a natural end. */
export function takeSource(source: TokenSource, count: number): TokenSource {
  let taken = 0;
  return {
    next() {
      if (taken >= count) return null;
      taken++;
      return source.next();
    },
  };
}

export function concatSources(...sources: TokenSource[]): TokenSource {
  let current = 0;
  return {
    next() {
      while (current < sources.length) {
        const token = (sources[current] as TokenSource).next();
        if (token !== null) return token;
        current++;
      }
      return null;
    },
  };
}

/** A loop's logprobs: the model is certain of every next token (what a locked-in repetition looks like). */
export const LOCKED_IN_LOGPROB = -0.0004;

/** The tokens of `source`, each sent with a near-zero logprob. */
export function lockedIn(source: TokenSource): TokenSource {
  return {
    next() {
      const t = source.next();
      return t === null ? null : { ...t, logprob: LOCKED_IN_LOGPROB };
    },
  };
}
