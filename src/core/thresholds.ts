/**
 * Every analyzer threshold, with its default, in one place. Probes override any of
 * them by name (`probes[].thresholds`). Owned by the analyzer; config validates
 * override names against the keys of DEFAULT_THRESHOLDS.
 */
export interface Thresholds {
  /** Whole-text gzip ratio (compressed/original) below which the text is suspicious / failed. */
  compressionRatioWarn: number;
  compressionRatioFail: number;
  /** Longest run of one word repeated back to back. */
  wordRunWarn: number;
  wordRunFail: number;
  /** Share of chars inside back-to-back repeats. */
  repeatCoverageWarn: number;
  repeatCoverageFail: number;
  /** Minimum copies of a unit before a back-to-back repeat counts as a loop. */
  repeatMinCount: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  compressionRatioWarn: 0.15,
  compressionRatioFail: 0.1,
  wordRunWarn: 6,
  wordRunFail: 12,
  repeatCoverageWarn: 0.1,
  repeatCoverageFail: 0.25,
  repeatMinCount: 4,
});
