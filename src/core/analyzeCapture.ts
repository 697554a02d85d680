import type { Analysis } from './analysisTypes.js';
import { type AnalyzeOptions, analyzeText } from './analyzeText.js';
import { analyzeChannels, reasoningFinishReason } from './analyzeChannels.js';
import { StreamAccumulator } from './streamAccumulator.js';
import { apiOfCapture } from './apiChunks.js';
import type { Thresholds } from './thresholds.js';

export type CaptureChannel = 'content' | 'reasoning' | 'both';

/** The analysis of each channel of a stream that was judged, by channel. */
export type CaptureChannels = { content?: Analysis; reasoning?: Analysis };

export interface CaptureAnalysis {
  /** 'sse' when the input was a captured stream (its `data:` lines), else 'text'. */
  format: 'sse' | 'text';
  channel: CaptureChannel;
  /**
   * The verdict's analysis. For `both` on a stream with reasoning and an answer, each is judged
   * apart (as a probe's sample) and this is worseOfChannels of the two: the worse verdict, both
   * channels' findings, the answer's metrics and score.
   */
  analysis: Analysis;
  /** Each channel's own analysis, for a stream: the channels judged (empty for plain text). */
  channels: CaptureChannels;
  /** Problems met while reading a captured stream (malformed lines, error events); the rest was still read. */
  notes: string[];
  /** The finish reason the analysis was given: the stream's own, else the caller's (null when unknown). */
  finishReason: string | null;
  /** The answer without its reasoning: what expect.language reads (a reasoning trace may be in another language by design). */
  answer: string;
}

/** A captured SSE stream starts (after blank lines or comments) with a `data:` or `event:` line. */
export function looksLikeSse(text: string): boolean {
  for (const line of text.split(/\r?\n/, 50)) {
    if (line.trim() === '' || line.startsWith(':')) continue;
    return /^(data|event|id|retry):/.test(line);
  }
  return false;
}

/**
 * Analyses plain text or a captured chat-completion stream (or completions, or responses: typed
 * `response.*` events are recognised), the input of
 * `coherency-exporter analyze`. For a stream, content and reasoning are rebuilt from the
 * deltas and each content delta counts as one token, so the report can give the onset token.
 * `both` judges the reasoning and the answer apart, as the daemon does (analyzeChannels), the
 * verdict the worse of the two; with one channel in the stream, both is that channel.
 * `judge` picks the verdict mode and model (the rules and the committed model by default) and whether the rules' analysis carries the model's score.
 */
export function analyzeCapture(
  input: string,
  channel: CaptureChannel,
  thresholds?: Partial<Thresholds>,
  finishReason: string | null = null,
  judge: Pick<AnalyzeOptions, 'verdict' | 'verdictModel' | 'score' | 'expectLanguage'> = {},
): CaptureAnalysis {
  if (!looksLikeSse(input)) {
    return {
      format: 'text',
      channel,
      analysis: analyzeText(channel === 'reasoning' ? '' : input, { ...judge, thresholds, finishReason }),
      channels: {},
      notes: [],
      finishReason,
      answer: input,
    };
  }
  const contentOffsets: number[] = [];
  let contentLength = 0;
  // Each chunk's content delta counts as one token: its offset is where the delta starts.
  const acc = new StreamAccumulator(
    undefined,
    (delta) => {
      contentOffsets.push(contentLength);
      contentLength += delta.length;
    },
    apiOfCapture(input),
  );
  // Events end with a blank line (LF, CRLF or CR line ends); a capture without blank lines
  // (grep data:) gets them, so that each data line is an event of its own.
  acc.pushText(/\r?\n\r?\n|\r\r/.test(input) ? input : input.replace(/\r?\n(?=data:)/g, '\n\n'), 0);
  acc.end(0);
  const r = acc.result();
  const notes: string[] = [];
  if (r.error) notes.push(`${r.error.type}: ${r.error.message}`);
  if (r.badEvents > 0) notes.push(`${r.badEvents} more bad events`);
  if (!r.endedCleanly) notes.push('the stream has no finish_reason and no [DONE]: it may have been cut');
  const finish = r.finishReason ?? finishReason;
  const options: AnalyzeOptions = { ...judge, thresholds, finishReason: finish };
  const channels: CaptureChannels = {};
  let analysis: Analysis;
  if (channel === 'content' || (channel === 'both' && !r.reasoning)) {
    analysis = analyzeText(r.content, { ...options, tokenOffsets: contentOffsets });
    channels.content = analysis;
  } else if (channel === 'reasoning' || !r.content) {
    analysis = analyzeText(r.reasoning, { ...options, finishReason: reasoningFinishReason(finish, r.content.length) });
    channels.reasoning = analysis;
  } else {
    // Both channels, judged apart as a probe's sample judges them: read as one text, an English
    // reasoning before a German answer would be a language_switch of a text nobody wrote.
    const { content, reasoning } = analyzeChannels(r, { ...options, tokenOffsets: contentOffsets });
    channels.content = content;
    analysis = content;
    if (reasoning) {
      channels.reasoning = reasoning;
      analysis = worseOfChannels(content, reasoning);
    }
  }
  return { format: 'sse', channel, analysis, channels, answer: r.content, notes, finishReason: finish };
}

const RANK: Record<Analysis['verdict'], number> = { ok: 0, warn: 1, fail: 2 };

/**
 * The analysis of a stream whose channels were judged apart: the worse verdict of the two, the
 * findings of both (the answer's first) with the reasoning's reasons prefixed `reasoning: ` as a
 * sample's are, and the answer's figures and score.
 */
export function worseOfChannels(content: Analysis, reasoning: Analysis): Analysis {
  return {
    verdict: RANK[reasoning.verdict] > RANK[content.verdict] ? reasoning.verdict : content.verdict,
    findings: [...content.findings, ...reasoning.findings],
    reasons: [...content.reasons, ...reasoning.reasons.map((line) => `reasoning: ${line}`)],
    metrics: content.metrics,
    ...(content.score ? { score: content.score } : {}),
  };
}
