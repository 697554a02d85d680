/**
 * The detectors, in the order their findings are listed (the first failing one names the
 * collapse). A new detector is one file and one entry here; its figures are then typed in
 * Figures and its findings reach the verdict.
 */
import type { TextStore } from '../textStore.js';
import type { Thresholds } from '../thresholds.js';
import { CompressionDetector } from './compression.js';
import { createCyclingDetector } from './cycling.js';
import { createEnumerationDetector } from './enumeration.js';
import { createGarbleDetector } from './garble.js';
import { LineDetector } from './lines.js';
import { LoopDetector } from './loops.js';
import { LowDiversityDetector } from './lowDiversity.js';
import { NgramDetector } from './ngrams.js';
import { createTailRepeatDetector } from './tailRepeat.js';
import { WhitespaceDetector } from './whitespace.js';
import { WindowDetector } from './windows.js';
import { WordRunDetector } from './wordRuns.js';

export function createDetectors(t: Thresholds, store: TextStore) {
  return {
    loops: new LoopDetector(t),
    tailRepeat: createTailRepeatDetector(),
    wordRuns: new WordRunDetector(),
    whitespace: new WhitespaceDetector(),
    lowDiversity: new LowDiversityDetector(t),
    cycling: createCyclingDetector(),
    enumeration: createEnumerationDetector(),
    windows: new WindowDetector(t),
    garble: createGarbleDetector(),
    lines: new LineDetector(),
    ngrams: new NgramDetector(),
    compression: new CompressionDetector(store),
  };
}

export type Detectors = ReturnType<typeof createDetectors>;

/** Every detector's figures for one text, by detector. */
export type Figures = { [K in keyof Detectors]: ReturnType<Detectors[K]['figures']> };
