import type { HttpExchange } from '../../client/httpExchange.js';
import type { StreamApi } from '../../core/apiChunks.js';
import { responseUsage } from './apiAnswers.js';
import { API_WORDS, answerProblem, type CheckContext } from './checkContext.js';
import { fail, isObject, pass, type CheckVerdict, type Evidence } from './checkTypes.js';
import type { StreamAnswer } from './readAnswers.js';

/**
 * Thresholds of the buffering signature, from healthy streams of the built-in simulator with a
 * margin. A proxy that buffers the stream delivers all of its text at the end: the share of the
 * text in the last 10% of the stream's time and the first-text time over the total time both
 * go to ~1 (while a speed dashboard sees a lower inter-token latency). A stream is called
 * buffered only when both are over: a slow prefill (or a queue) raises the second alone on a
 * healthy stream.
 *
 * MEASURED (`npm run bench -- streamspread`, 20 streams a cell of 512 tokens, at 250, 1,000,
 * 2,000 and 4,000 tokens/s, models healthy and reasoning, 2-core machine at load average 2-3):
 * healthy streams gave a late share of 0.041-0.164 (median 0.096-0.110) and a first-text ratio
 * of 0.001-0.219 (the top one at 4,000 tokens/s, where a stream lasts 128 ms and a read's
 * timing is noise; 0.036 at most up to 2,000 tokens/s); the same streams behind the buffering
 * proxy gave 1.000 and 0.978-1.000. Both thresholds sit at 0.5: about 3 and 2.3 times the
 * healthiest streams' worst, half what a buffered stream shows.
 */
export const LATE_WINDOW = 0.1;
export const LATE_CONTENT_MAX_RATIO = 0.5;
export const FIRST_CONTENT_MAX_RATIO = 0.5;
/** Streams shorter than this are not judged for spread: at loopback speed a read's timing is noise. */
export const MIN_JUDGED_MS = 100;
/** Slack of the usage check: deltas split at a character boundary, and the special tokens (EOS) counted but never sent. */
const COUNT_SLACK = 16;
/** A delta carries a token or a few (speculative decoding: up to ~8); more tokens than this per delta is not what was sent. */
const MAX_TOKENS_PER_DELTA = 8;

export interface StreamFigures {
  /** Milliseconds from sending the request to the last read of the body. */
  totalMs: number;
  textBytes: number;
  textDeltas: number;
  /** Share of the text's bytes that arrived in the last LATE_WINDOW of totalMs, 0-1. */
  lateContentRatio: number;
  /** Time to the first text delta over totalMs, 0-1. */
  firstContentRatio: number;
  /** Distinct reads the text arrived in (a buffered stream: one or a few). */
  textReads: number;
  /** Median gap between two text deltas, ms (what a speed dashboard calls inter-token latency). */
  medianGapMs: number | null;
}

/** Where the text of a stream arrived in its time. Pure. */
export function streamFigures(s: StreamAnswer, totalMs: number): StreamFigures {
  const textBytes = s.textDeltas.reduce((n, d) => n + d.bytes, 0);
  const lateFrom = totalMs * (1 - LATE_WINDOW);
  const late = s.textDeltas.filter((d) => d.atMs >= lateFrom).reduce((n, d) => n + d.bytes, 0);
  const first = s.textDeltas[0]?.atMs ?? totalMs;
  const gaps = s.textDeltas
    .slice(1)
    .map((d, i) => d.atMs - (s.textDeltas[i] as { atMs: number }).atMs)
    .sort((a, b) => a - b);
  return {
    totalMs,
    textBytes,
    textDeltas: s.textDeltas.length,
    lateContentRatio: textBytes > 0 ? late / textBytes : 0,
    firstContentRatio: totalMs > 0 ? Math.min(1, first / totalMs) : 0,
    textReads: new Set(s.textDeltas.map((d) => d.atMs)).size,
    medianGapMs: gaps.length > 0 ? (gaps[Math.floor(gaps.length / 2)] as number) : null,
  };
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Hidden reasoning tokens a server counts in completion_tokens but never streams (OpenAI's reasoning models). */
function hiddenReasoning(s: StreamAnswer, usageChunk: unknown): number {
  if (s.reasoning !== '' || !isObject(usageChunk)) return 0;
  const details = usageChunk['completion_tokens_details'];
  const n = isObject(details) ? details['reasoning_tokens'] : undefined;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/**
 * Judges a stream: it ends with [DONE], carries a usage chunk whose completion_tokens agree with
 * the deltas counted, and (when `timed`: a live stream long enough) its text came spread over
 * its time. Pure: recorded streams are judged with timed false.
 */
export function judgeStream(s: StreamAnswer, figures: StreamFigures | null, api: StreamApi = 'chat'): CheckVerdict | null {
  const evidence: Evidence = {
    chunks: s.events.length,
    done: s.done,
    usage: s.usage ? s.usage.from : null,
    ...(figures ? figureEvidence(figures) : {}),
  };
  if (s.events.length === 0) return fail('not_streamed', 'the answer held no stream events', evidence);
  if (s.textDeltas.length === 0 && s.toolDeltas.length === 0) return fail('not_streamed', 'the stream carried no text', evidence);
  if (figures && figures.lateContentRatio > LATE_CONTENT_MAX_RATIO && figures.firstContentRatio > FIRST_CONTENT_MAX_RATIO) {
    return fail(
      'buffered',
      `${Math.round(figures.lateContentRatio * 100)}% of the text arrived in the last ${LATE_WINDOW * 100}% of the stream and the first text after ${Math.round(figures.firstContentRatio * 100)}% of it (${figures.textReads} read${figures.textReads === 1 ? '' : 's'}): something between the server and here buffers the stream`,
      evidence,
    );
  }
  if (!s.done) return fail('no_done', `the stream ended without ${API_WORDS[api].end}`, evidence);
  if (!s.usage)
    return fail(
      'usage_chunk_missing',
      api === 'responses'
        ? 'response.completed carried no usage (the tokens go unrecorded)'
        : 'no usage chunk came with stream_options.include_usage (the tokens go unrecorded)',
      evidence,
    );
  const completion = s.usage.completion;
  if (typeof completion !== 'number' || !Number.isSafeInteger(completion) || completion < 0)
    return fail('usage_count_mismatch', `the usage chunk's completion_tokens is not a count`, evidence);
  const usageObject = [...s.events].reverse().find((e) => isObject(e.json?.['usage']))?.json;
  // a response's usage is in its last event's response, in its own names
  const last = api === 'responses' ? [...s.events].reverse().find((e) => isObject(e.json?.['response']))?.json?.['response'] : undefined;
  const hidden = hiddenReasoning(s, isObject(last) ? responseUsage(last) : usageObject?.['usage']);
  const counted = s.textDeltas.length + s.toolDeltas.length;
  const bytes =
    s.textDeltas.reduce((n, d) => n + d.bytes, 0) +
    s.toolDeltas.reduce((n, d) => n + (typeof d.arguments === 'string' ? Buffer.byteLength(d.arguments) : 0), 0);
  const streamed = completion - hidden;
  const low = counted - 2;
  const high = Math.min(bytes + COUNT_SLACK, MAX_TOKENS_PER_DELTA * counted + COUNT_SLACK);
  const counts = { ...evidence, completion_tokens: completion, deltas: counted, ...(hidden > 0 ? { hiddenReasoningTokens: hidden } : {}) };
  if (streamed < low || streamed > high)
    return fail(
      'usage_count_mismatch',
      `usage says ${completion} completion tokens${hidden > 0 ? ` (${hidden} hidden reasoning)` : ''}, but ${counted} deltas of ${bytes} bytes arrived (expected ${Math.max(0, low)} to ${high})`,
      counts,
    );
  return null;
}

function figureEvidence(f: StreamFigures): Evidence {
  return {
    seconds: round(f.totalMs / 1000),
    lateContentRatio: round(f.lateContentRatio),
    firstContentRatio: round(f.firstContentRatio),
    textReads: f.textReads,
    medianGapMs: f.medianGapMs === null ? null : round(f.medianGapMs, 2),
  };
}

/** The last read of the body, ms after the request was sent. */
function lastReadMs(x: HttpExchange): number {
  return x.pieces.at(-1)?.atMs ?? x.endedAtMs;
}

/**
 * streaming: the text arrives spread over the stream (the share of its bytes in the last 10%
 * of the stream's time, and first-text time over total time, against thresholds measured on
 * healthy simulator streams), the stream ends with [DONE], and with include_usage a final usage
 * chunk arrives whose completion_tokens agree with the deltas counted.
 */
export async function checkStreaming(ctx: CheckContext): Promise<CheckVerdict> {
  const { exchange, answer } = await ctx.stream();
  const problem = answerProblem(exchange, ctx.words.answer.replace(/^a /, 'a streamed '), { cutIsOk: true });
  if (problem || !answer) return problem ?? fail('not_streamed', 'no stream');
  if (!exchange.contentType.includes('text/event-stream') && answer.events.length === 0)
    return fail('not_streamed', `asked to stream, the server answered ${exchange.contentType || 'without a content-type'}`, {
      contentType: exchange.contentType || null,
    });
  const measured = streamFigures(answer, lastReadMs(exchange));
  const judged = measured.totalMs >= MIN_JUDGED_MS;
  const verdict = judgeStream(answer, judged ? measured : null, ctx.api);
  // the ratios go out as gauges (coherency_conformance_streaming_*) only from a stream long enough to judge
  const figures: Evidence = { ...figureEvidence(measured), spreadJudged: judged };
  if (verdict) return { ...verdict, evidence: { ...verdict.evidence, ...figures } };
  const spread = judged
    ? `${Math.round(measured.lateContentRatio * 100)}% of the text in the last ${LATE_WINDOW * 100}% of ${round(measured.totalMs / 1000, 2)} s, first text at ${Math.round(measured.firstContentRatio * 100)}%`
    : `spread not judged (the stream took ${Math.round(measured.totalMs)} ms, under ${MIN_JUDGED_MS} ms)`;
  const completion = answer.usage?.completion;
  const ending = ctx.api === 'responses' ? 'response.completed with a usage that agrees' : '[DONE] and a usage chunk that agrees';
  return pass(`${answer.textDeltas.length} deltas, ${spread}; ${ending}`, {
    chunks: answer.events.length,
    done: true,
    usage: answer.usage?.from ?? null,
    completion_tokens: typeof completion === 'number' ? completion : null,
    ...figures,
  });
}
