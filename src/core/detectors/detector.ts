/**
 * What a detector is: a pure function of the tokenizer's output (figures), a pure judgement
 * of those figures against its own thresholds (findings), and the thresholds themselves,
 * each with its default and the measurement that justifies it. The registry derives the
 * Thresholds type, the defaults and the finding kinds from the list of detectors.
 */
import type { SpaceRuns, TokenBuffer } from '../text/tokens.js';
import type { Finding } from './finding.js';

/** The text so far, as the tokenizer left it (read only). */
export interface Scan {
  /** True in the live check: only the last tokens are read, and nothing that needs the whole text (word counts). */
  readonly live: boolean;
  /** UTF-16 chars of the text. */
  readonly chars: number;
  slice(from: number, to: number): string;
  /** The whole text as one string (joined once, on first use). */
  text(): string;
  readonly tokens: TokenBuffer;
  readonly spaces: SpaceRuns;
  /** Per token id: its flags (F_FUNC). */
  readonly idFlags: Int32Array;
  /** Token ids are below this. */
  readonly idCount: number;
  /** Occurrences of each token id in the text (computed once, on first use). */
  counts(): Int32Array;
  /** UTF-8 bytes of the text. */
  readonly bytes: number;
  /** False when the text holds no U+FFFD and no control char but whitespace (tab, newline, vertical tab, form feed, CR). */
  readonly oddSeen: boolean;
  /** False when the text holds none of U+2581, U+0120, U+010A, U+FF5C (space markers, the full-width bar of special tokens). */
  readonly markSeen: boolean;
}

/** One threshold: its default value and why it is there (the healthy-text figure it sits beyond). */
export interface Threshold {
  value: number;
  why: string;
}

export type ThresholdTable = Readonly<Record<string, Threshold>>;

/** The values of a threshold table, by name. */
export type Values<T extends ThresholdTable> = { [K in keyof T]: number };

export interface JudgeContext {
  /** Chars of the text so far. */
  chars: number;
  /**
   * How the generation ended, when known: 'length' means it was cut by the token limit
   * (max_tokens), which inside a loop or flood is itself evidence of collapse. null while a
   * stream is still running, or when the caller does not know.
   */
  finishReason: string | null;
  /**
   * True for a snapshot of a stream that is still running (a debug view): a reading of how the
   * text ends, such as a language switch, is then left out, since the text does not end there.
   */
  partial?: boolean;
  /**
   * The language (ISO 639-1) the prompt asked the answer in, when the caller knows it (a probe's expect.language): a
   * switch into it, or into its script, is the answer asked for (a translation after an English line), not a drift.
   */
  expectLanguage?: string | null;
}

export interface Detector<F extends object = object, K extends string = string, T extends ThresholdTable = ThresholdTable> {
  /** Short name, used in tests, benches and the figures object. */
  readonly name: string;
  /** The finding kinds it can report (bounded: they are metric labels). */
  readonly kinds: readonly K[];
  readonly thresholds: T;
  /**
   * Tokens it reads back from the end in the live check (run every ~32 tokens to abort a
   * collapsed stream): only detectors whose findings can be certain have one.
   */
  readonly liveTokens?: number;
  /** Figures for the text so far, reading tokens from `from` (0 for the whole text; the live check passes a tail). */
  figures(scan: Scan, from: number): F;
  /** Findings from the figures. Pure. */
  judge(figures: F, t: Values<T>, ctx: JudgeContext): Array<Finding<K>>;
}
