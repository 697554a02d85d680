import type { SampleFigures } from '../../src/fingerprint/changeComparison.js';

/** A healthy sample's figures for the before/after comparison, with the fields a test sets. */
export function sampleFiguresOf(over: Partial<SampleFigures> = {}): SampleFigures {
  return {
    failed: false,
    errored: false,
    loop: false,
    onsetToken: null,
    recall: null,
    golden: null,
    conformanceFailed: null,
    ttftSeconds: 0.5,
    itlSeconds: 0.02,
    ...over,
  };
}
