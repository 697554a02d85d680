/**
 * Per-token logprobs of a stream, kept in bounded memory: a running sum over every token and
 * the last TAIL_TOKENS values in a ring. A loop locks in (the model is sure of every next token:
 * logprob ~ 0); gibberish is a model unsure of everything (very low values). Pure.
 */

/** Tokens in the tail window the figures are computed over. */
export const TAIL_TOKENS = 256;
/** A token at least this likely (logprob above it, p > ~0.99) counts as near-certain. */
export const NEAR_CERTAIN_LOGPROB = -0.01;

export interface LogprobSummary {
  /** Tokens that carried a logprob. */
  tokens: number;
  /** Mean logprob over every token (<= 0; closer to 0 is more confident). */
  meanLogprob: number;
  /** Tokens in the tail window (min(tokens, 256)). */
  tailTokens: number;
  /** Mean logprob of the last 256 tokens. */
  tailMeanLogprob: number;
  /** Share of the last 256 tokens with logprob > -0.01, 0-1. HIGHER means more locked in. */
  tailNearCertainRatio: number;
}

export class LogprobTrace {
  private readonly ring = new Float64Array(TAIL_TOKENS);
  private count = 0;
  private sum = 0;

  /** Adds one token's logprob; non-finite or positive values (a server's nonsense) are ignored, -Infinity is clamped. */
  push(logprob: number): void {
    if (Number.isNaN(logprob) || logprob > 1e-9) return;
    const v = Math.max(logprob, -100);
    this.ring[this.count % TAIL_TOKENS] = v;
    this.count++;
    this.sum += v;
  }

  get tokens(): number {
    return this.count;
  }

  /** null when no token carried a logprob (the server ignored the request). */
  summary(): LogprobSummary | null {
    if (this.count === 0) return null;
    const n = Math.min(this.count, TAIL_TOKENS);
    let tailSum = 0;
    let certain = 0;
    for (let i = 0; i < n; i++) {
      const v = this.ring[i] as number;
      tailSum += v;
      if (v > NEAR_CERTAIN_LOGPROB) certain++;
    }
    return {
      tokens: this.count,
      meanLogprob: this.sum / this.count,
      tailTokens: n,
      tailMeanLogprob: tailSum / n,
      tailNearCertainRatio: certain / n,
    };
  }
}

/** Logprobs of one chunk's choice: choices[].logprobs.content[].logprob (OpenAI, vLLM, SGLang, llama.cpp). */
export function chunkLogprobs(choice: Record<string, unknown>): number[] {
  const lp = choice['logprobs'];
  if (typeof lp !== 'object' || lp === null) return [];
  const out: number[] = [];
  for (const key of ['content', 'reasoning_content', 'reasoning']) {
    const list = (lp as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    for (const t of list as unknown[]) {
      const v = typeof t === 'object' && t !== null ? (t as Record<string, unknown>)['logprob'] : undefined;
      if (typeof v === 'number') out.push(v);
    }
  }
  return out;
}

/** Tail tokens needed before the logprobs may strengthen a verdict. */
export const EVIDENCE_MIN_TAIL_TOKENS = 64;
/** A warn-level repeat whose tail is this near-certain is a locked-in loop: fail. */
export const LOCKED_IN_RATIO = 0.9;
/** A warn-level garble whose tail mean logprob is below this is a model guessing: fail. */
export const LOST_MEAN_LOGPROB = -4;

/**
 * How logprobs strengthen a warn into a fail, never make a finding on their own: a warn-level
 * repeat (word_loop ... list_runaway) with a near-certain tail (the model is locked in and
 * will not leave), or a warn-level word_salad / gibberish with a very low tail mean (the model
 * no longer knows what comes next). Returns the note for the finding's detail, or null.
 */
export function logprobEscalation(kind: string, isRepeat: boolean, s: LogprobSummary | null): string | null {
  if (!s || s.tailTokens < EVIDENCE_MIN_TAIL_TOKENS) return null;
  if (isRepeat && s.tailNearCertainRatio >= LOCKED_IN_RATIO) {
    return `locked in: ${Math.round(s.tailNearCertainRatio * 100)}% of the last ${s.tailTokens} tokens near-certain (logprob > ${NEAR_CERTAIN_LOGPROB})`;
  }
  if ((kind === 'word_salad' || kind === 'gibberish') && s.tailMeanLogprob < LOST_MEAN_LOGPROB) {
    return `the model is guessing: mean logprob ${s.tailMeanLogprob.toFixed(2)} over the last ${s.tailTokens} tokens (under ${LOST_MEAN_LOGPROB})`;
  }
  return null;
}
