import { tokenize } from '../prose/tokenize.js';

/** One streamed delta. `reasoning` tokens go out as `delta.reasoning_content`. */
export interface Token {
  text: string;
  reasoning: boolean;
  /** The logprob sent with it when the client asks for logprobs; absent: an ordinary one (healthy text). */
  logprob?: number;
  /** A fragment of a function call's arguments (`text`), not content: the call's index, and its id and name on its first fragment. */
  tool?: { index: number; open?: { id: string; name: string } };
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

/**
 * The tokens of `source` up to the first of the stop sequences in its text, which is not sent
 * (as servers do): the text ends just before it, naturally. Text is held back by the longest
 * stop's length minus one, so a stop spanning several tokens is found. Reasoning is searched too
 * (vLLM matches stop strings on the whole generated text, before the reasoning parser splits it
 * off); tool-call arguments are not, and no stop spans a switch between reasoning and content.
 */
export function stopAt(source: TokenSource, stops: readonly string[]): TokenSource {
  if (stops.length === 0) return source;
  const keep = Math.max(...stops.map((s) => s.length)) - 1;
  const out: Token[] = [];
  let held: Token[] = [];
  let heldText = '';
  let ended = false;
  const flush = () => {
    out.push(...held);
    held = [];
    heldText = '';
  };
  return {
    next() {
      while (out.length === 0 && !ended) {
        const t = source.next();
        if (t === null) {
          flush();
          ended = true;
          break;
        }
        if (t.tool) {
          flush();
          out.push(t);
          continue;
        }
        if (held.length > 0 && t.reasoning !== (held[0] as Token).reasoning) flush();
        held.push(t);
        heldText += t.text;
        const at = Math.min(...stops.map((s) => heldText.indexOf(s)).filter((i) => i >= 0));
        if (Number.isFinite(at)) {
          // send what comes before the stop, the token it starts in cut short
          let left = at;
          for (const h of held) {
            if (left <= 0) break;
            out.push(h.text.length <= left ? h : { ...h, text: h.text.slice(0, left) });
            left -= h.text.length;
          }
          held = [];
          ended = true;
          continue;
        }
        // keep the last (longest stop - 1) characters: a stop may start in them
        while (held.length > 0 && heldText.length - (held[0] as Token).text.length >= keep) {
          const first = held.shift() as Token;
          heldText = heldText.slice(first.text.length);
          out.push(first);
        }
      }
      return out.shift() ?? null;
    },
  };
}
