import type { Analysis } from './analysisTypes.js';
import { type AnalyzeOptions, analyzeText } from './analyzeText.js';
import { StreamAccumulator } from './streamAccumulator.js';
import { apiOfCapture } from './apiChunks.js';
import type { Thresholds } from './thresholds.js';

export type CaptureChannel = 'content' | 'reasoning' | 'both';

export interface CaptureAnalysis {
  /** 'sse' when the input was a captured stream (its `data:` lines), else 'text'. */
  format: 'sse' | 'text';
  channel: CaptureChannel;
  analysis: Analysis;
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
 * `judge` picks the verdict mode and model (the rules and the committed model by default) and whether the rules' analysis carries the model's score.
 */
export function analyzeCapture(
  input: string,
  channel: CaptureChannel,
  thresholds?: Partial<Thresholds>,
  finishReason: string | null = null,
  judge: Pick<AnalyzeOptions, 'verdict' | 'verdictModel' | 'score'> = {},
): CaptureAnalysis {
  if (!looksLikeSse(input)) {
    return {
      format: 'text',
      channel,
      analysis: analyzeText(channel === 'reasoning' ? '' : input, { ...judge, thresholds, finishReason }),
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
  let text: string;
  let tokenOffsets: number[] | undefined;
  if (channel === 'content') {
    text = r.content;
    tokenOffsets = contentOffsets;
  } else if (channel === 'reasoning') {
    text = r.reasoning;
  } else {
    text = r.reasoning ? `${r.reasoning}\n\n${r.content}` : r.content;
    if (!r.reasoning) tokenOffsets = contentOffsets;
  }
  const finish = r.finishReason ?? finishReason;
  // reasoning followed by content was not cut inside the reasoning
  const evidence = channel === 'reasoning' && r.content.length > 0 ? 'stop' : finish;
  return {
    format: 'sse',
    channel,
    analysis: analyzeText(text, { ...judge, thresholds, finishReason: evidence, ...(tokenOffsets ? { tokenOffsets } : {}) }),
    answer: r.content,
    notes,
    finishReason: finish,
  };
}
