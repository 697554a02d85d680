import type { Finding } from '../finding.js';
import type { Thresholds } from '../thresholds.js';

/** Read access to the text pushed so far. */
export interface TextView {
  readonly length: number;
  slice(from: number, to: number): string;
}

/** What a detector's judge may know besides its own figures. */
export interface JudgeContext {
  thresholds: Thresholds;
  /** Chars of the text so far. */
  chars: number;
  /**
   * How the generation ended, when known: 'length' means it was cut by the token limit
   * (max_tokens), which inside a loop or flood is itself evidence of collapse. null while
   * a stream is still running, or when the caller does not know.
   */
  finishReason: string | null;
}

/**
 * One detector: fed the text as it streams, it keeps its own bounded state, reports its
 * figures for the text so far, and judges them. Contract (tested for every detector):
 * - any split of the same text into pushes ends in the same figures;
 * - figures() changes nothing (a snapshot mid-stream leaves the detector as it was);
 * - cost per pushed char does not grow with the text; figures() is bounded.
 */
export interface Detector<F extends object = object> {
  /** Short name, used in tests and the bench ('tail_repeat', 'cycling', ...). */
  readonly name: string;
  /**
   * True when its findings can be certain (beyond doubt, safe to abort the stream). The live
   * abort check, run every ~32 tokens, computes only these detectors' figures.
   */
  readonly mayBeCertain?: boolean;
  /**
   * A cheap test for the live abort check: true when figures() cannot give a certain finding
   * for this text now, so the check may skip it. Must never answer true when it could.
   */
  cannotBeCertain?(view: TextView, thresholds: Thresholds): boolean;
  /** The next delta, which starts at char `offset` of the text (detectors fed only by the tokenizer's hooks leave it out). */
  push?(delta: string, offset: number): void;
  /** Figures for the text so far, as if it ended here. Must not change the detector's state. */
  figures(view: TextView): F;
  /** Findings from the figures. Pure. */
  judge(figures: F, context: JudgeContext): Finding[];
}

/** A detector that reads the raw text itself (not the tokenizer's hooks). */
export interface TextDetector<F extends object = object> extends Detector<F> {
  push(delta: string, offset: number): void;
}
