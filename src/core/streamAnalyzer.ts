import type { Analysis, VerdictMode } from './analysisTypes.js';
import { Engine } from './engine.js';
import { scoringModel } from './scoringModel.js';
import type { Finding } from './finding.js';
import { DEFAULT_THRESHOLDS, type Thresholds } from './thresholds.js';
import { analysisOf, certainCollapse, type LiveCheck, liveCheck } from './verdict.js';
import type { VerdictModel } from './verdictModel.js';

export interface StreamAnalyzerOptions {
  thresholds?: Partial<Thresholds>;
  /**
   * Count each push() as one stream token, so metrics.repeatOnsetToken gives the token
   * index where the loop starts. The final snapshot then equals
   * analyzeText(text, { tokenOffsets }) with the deltas' start offsets.
   */
  countTokens?: boolean;
  /**
   * Who decides the final verdict: 'rules' (default) or 'learned'. The live check and partial
   * snapshots use the rules alone either way: the model judges the finished text.
   */
  verdict?: VerdictMode;
  /** A retrained model (loadVerdictModel) instead of the committed one. */
  verdictModel?: VerdictModel;
  /** Under the rules, also give the learned model's score of the finished text (see AnalyzeOptions.score). */
  score?: boolean;
  /** The language the prompt asked the answer in (see AnalyzeOptions.expectLanguage). */
  expectLanguage?: string;
}

export interface StreamAnalyzer {
  /** Feed the next piece of text. Cost is proportional to the piece, not to the text so far. */
  push(delta: string): void;
  /**
   * Analysis of the text so far, as if it ended here; the analyzer goes on accepting
   * pushes. Cost is linear in the text (every detector reads the tokens; only the
   * unfinished 32 KB gzip block is compressed): call it at the end, or for a debug view,
   * and liveCheck() in between.
   */
  snapshot(options?: SnapshotOptions): Analysis;
  /**
   * The first certain fail of the text so far (a loop or flood that will not recover), or
   * null. Computes only the detectors that can be certain, on the last few thousand tokens:
   * bounded whatever the length, for the abort check every ~32 tokens.
   */
  certainCollapse(): Finding | null;
  /** certainCollapse() and, short of certain, the first fail or warning of the same cheap detectors. */
  liveCheck(): LiveCheck;
  /** Chars pushed so far. */
  readonly length: number;
}

export interface SnapshotOptions {
  /** The stream's finish_reason once it has ended ('length': cut by the token limit). */
  finishReason?: string | null;
  /**
   * True while the stream is still running: readings of how the text ends (language_switch) are
   * left out, so a prefix that stops inside a quoted passage or before a section's title does
   * not read as a drift. The final snapshot leaves it unset and equals analyzeText.
   */
  partial?: boolean;
}

/** The defaults, frozen: an analysis without overrides shares them (a copy of some sixty keys per call cost 3 µs). */
const DEFAULTS: Readonly<Thresholds> = Object.freeze({ ...DEFAULT_THRESHOLDS });

export function resolveThresholds(overrides?: Partial<Thresholds> | Record<string, number>): Thresholds {
  if (overrides === undefined) return DEFAULTS;
  const t: Thresholds = { ...DEFAULT_THRESHOLDS };
  for (const [k, v] of Object.entries(overrides)) {
    if (typeof v === 'number' && Number.isFinite(v) && Object.hasOwn(DEFAULT_THRESHOLDS, k)) {
      (t as unknown as Record<string, number>)[k] = v;
    }
  }
  return t;
}

export function createStreamAnalyzer(options: StreamAnalyzerOptions = {}): StreamAnalyzer {
  const thresholds = resolveThresholds(options.thresholds);
  const model = scoringModel(options);
  const verdict = options.verdict ?? 'rules';
  const engine = new Engine();
  const offsets: number[] | undefined = options.countTokens ? [] : undefined;
  const slice = (a: number, b: number): string => engine.slice(a, b);
  return {
    push(delta: string): void {
      if (delta.length === 0) return;
      offsets?.push(engine.length);
      engine.push(delta);
    },
    certainCollapse(): Finding | null {
      return certainCollapse(engine, { thresholds, slice, tokenOffsets: offsets });
    },
    liveCheck(): LiveCheck {
      return liveCheck(engine, { thresholds, slice, tokenOffsets: offsets });
    },
    snapshot(o: SnapshotOptions = {}): Analysis {
      return analysisOf(engine, {
        thresholds,
        slice,
        tokenOffsets: offsets,
        finishReason: o.finishReason ?? null,
        partial: o.partial === true,
        model,
        verdict,
        expectLanguage: options.expectLanguage ?? null,
      });
    },
    get length(): number {
      return engine.length;
    },
  };
}

/**
 * True when a fail is beyond doubt and will not recover if the stream goes on: a
 * verbatim loop with many copies still running at the end of the text, or a long
 * whitespace flood at the end. The daemon may abort the stream on it.
 */
export function isCertainFail(analysis: Analysis): boolean {
  return analysis.verdict === 'fail' && analysis.findings.some((f) => f.certain);
}
