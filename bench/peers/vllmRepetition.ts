/**
 * Peer rule: the optional repetition stop proposed for vLLM (SamplingParams
 * `repetition_detection` = {min_pattern_size, max_pattern_size, min_count}), written here from
 * its public description, not from its code. After every generated token the scheduler asks
 * whether the tail of the output is `min_count` back-to-back copies of one block of L tokens,
 * for some L in [min_pattern_size, max_pattern_size]; if so the request ends with
 * stop_reason "repetition_detected".
 *
 * Because the check runs after every token, a text is stopped at the FIRST point where its
 * tail so far matches, not only when the finished text ends in a loop: `stream: true` (the
 * default) reproduces that, `stream: false` looks at the final tail only.
 *
 * Tokens: the bench has no model tokenizer. 'plain' tokens (the default, as briefed): a run of
 * letters/digits/underscore (Unicode-aware \w+) or any single other non-space character; Han,
 * Hiragana and Katakana count one token per character (those scripts have no spaces, and BPE
 * vocabularies hold them as 1–2 character tokens). Whitespace is dropped. Two gaps versus a
 * real BPE tokenizer, both handled by the 'merged' tokens: (1) BPE holds runs of one
 * punctuation character ("...", "---", "```", "###", "**") as one token, while plain tokens
 * make them 2–3 identical tokens, which alone trips a 1-token × 3 setting in most markdown;
 * (2) a flood of one letter or digit with no spaces ("GGGG…", "0000…") is ONE plain token,
 * while BPE splits it into many identical pieces that the stop would catch; (3) whitespace is
 * dropped, so a whitespace flood is invisible, while BPE has newline and space-run tokens.
 * 'merged' tokens: a run of one punctuation character up to 16 long is one token, a
 * letter/digit run is cut into pieces of at most 16 characters, and whitespace other than a
 * single space is kept as tokens (a newline or tab alone, or runs of 2–16 whitespace chars).
 *
 * The three settings benchmarked are the ones proposed in public: L 1–20 × 3 copies (the
 * automatic guard proposed for structured-output requests), L 4–128 × 4 (the reasoning-loop
 * breaker), L 16–1024 × 4 (llama.cpp server's default profile modelled on vLLM's feature).
 */

export type PeerVerdict = 'ok' | 'warn' | 'fail';

export interface PeerResult {
  verdict: PeerVerdict;
  reason: string;
}

export interface RepetitionSetting {
  minL: number;
  maxL: number;
  copies: number;
}

export const VLLM_SETTINGS: readonly RepetitionSetting[] = [
  { minL: 1, maxL: 20, copies: 3 },
  { minL: 4, maxL: 128, copies: 4 },
  { minL: 16, maxL: 1024, copies: 4 },
];

const CJK = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]';
/** A letter, mark, digit or underscore outside Han/Hiragana/Katakana (set difference: the 'v' flag). */
const WORD_CHAR = `[[\\p{L}\\p{M}\\p{N}_]--${CJK}]`;
export type TokenMode = 'plain' | 'merged';
const TOKEN: Record<TokenMode, RegExp> = {
  plain: new RegExp(`${CJK}|${WORD_CHAR}+|\\S`, 'gv'),
  merged: new RegExp(`\\s{2,16}|[^\\S ]|${CJK}|${WORD_CHAR}{1,16}|([^\\s\\p{L}\\p{M}\\p{N}_])\\1{0,15}|\\S`, 'gv'),
};

export interface Tokens {
  /** Token ids (equal strings share an id). */
  ids: Int32Array;
  /** Char offset of each token in the text. */
  starts: Int32Array;
  /** The token strings. */
  words: string[];
}

/** The tokens of `mode` (see above): the strings, interned ids and offsets. */
export function tokenize(text: string, mode: TokenMode = 'plain'): Tokens {
  const intern = new Map<string, number>();
  const ids: number[] = [];
  const starts: number[] = [];
  const words: string[] = [];
  const re = TOKEN[mode];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const w = m[0];
    words.push(w);
    let id = intern.get(w);
    if (id === undefined) {
      id = intern.size;
      intern.set(w, id);
    }
    ids.push(id);
    starts.push(m.index);
  }
  return { ids: Int32Array.from(ids), starts: Int32Array.from(starts), words };
}

export interface RepetitionHit {
  /** Index of the token after which the generation is stopped. */
  stopAt: number;
  /** Block length in tokens. */
  period: number;
}

/** Whether the tokens ids[0..end] end in `copies` back-to-back copies of an L-token block (vLLM's tail check). */
function tailRepeats(ids: Int32Array, end: number, L: number, copies: number): boolean {
  if (L * copies > end + 1) return false;
  for (let j = 0; j < (copies - 1) * L; j++) if (ids[end - j] !== ids[end - j - L]) return false;
  return true;
}

/** The final tail only: does the finished text end in the loop? (shortest L first, as vLLM scans). */
export function tailRepetition(ids: Int32Array, s: RepetitionSetting): RepetitionHit | null {
  const end = ids.length - 1;
  for (let L = s.minL; L <= s.maxL; L++) {
    if (L * s.copies > ids.length) break;
    if (tailRepeats(ids, end, L, s.copies)) return { stopAt: end, period: L };
  }
  return null;
}

/**
 * The first token after which vLLM's per-token check would have fired. For one L the check
 * fires at token p when ids[j] === ids[j-L] for the R = (copies-1)·L tokens j ending at p, so we
 * look for the first run of R such matches. Any such run covers one of the probe positions
 * L-1+R, L-1+2R, …, so only those are tested and a run is measured only around a matching
 * probe: about n/R + (matches met) steps per L instead of n·R.
 */
export function firstRepetitionStop(ids: Int32Array, s: RepetitionSetting): RepetitionHit | null {
  const n = ids.length;
  let best: RepetitionHit | null = null;
  for (let L = s.minL; L <= s.maxL; L++) {
    const R = (s.copies - 1) * L;
    if (L + R > n) break;
    const limit = best ? best.stopAt : n - 1;
    for (let q = L - 1 + R; q <= limit; ) {
      if (ids[q] !== ids[q - L]) {
        q += R;
        continue;
      }
      let a = q;
      while (a - 1 >= L && ids[a - 1] === ids[a - 1 - L]) a--;
      const p = a + R - 1;
      let b = q;
      while (b < p && b + 1 < n && ids[b + 1] === ids[b + 1 - L]) b++;
      if (b >= p) {
        if (p <= limit && (!best || p < best.stopAt)) best = { stopAt: p, period: L };
        break;
      }
      // The run [a, b] is too short; the next probe after it.
      q += R * Math.max(1, Math.ceil((b + 1 - q) / R));
    }
  }
  return best;
}

/** vLLM's repetition stop with one setting: fail when it would have stopped the generation. */
export function vllmRepetition(text: string, s: RepetitionSetting, opts: { stream?: boolean; tokens?: Tokens } = {}): PeerResult {
  const { ids, starts } = opts.tokens ?? tokenize(text);
  const hit = opts.stream === false ? tailRepetition(ids, s) : firstRepetitionStop(ids, s);
  if (!hit) return { verdict: 'ok', reason: '' };
  const at = starts[hit.stopAt] ?? 0;
  const from = starts[Math.max(0, hit.stopAt - hit.period * s.copies + 1)] ?? 0;
  return {
    verdict: 'fail',
    reason: `repetition_detected: ${s.copies} copies of a ${hit.period}-token block, stopped at char ${at} of ${text.length} (block from char ${from}: ${JSON.stringify(text.slice(from, Math.min(at + 1, from + 60)))})`,
  };
}
