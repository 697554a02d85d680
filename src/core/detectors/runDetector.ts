import type { Finding } from '../finding.js';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../thresholds.js';
import type { Detector } from './detector.js';

export interface RunOptions {
  thresholds?: Partial<Thresholds>;
  finishReason?: string | null;
  /** Push the text in these pieces (default: whole). */
  deltas?: readonly string[];
}

/** Feeds one detector a text and judges it: for table tests and benches of a single detector. */
export function runDetector<F extends object>(
  detector: Detector<F>,
  text: string,
  o: RunOptions = {},
): { figures: F; findings: Finding[] } {
  const pieces = o.deltas ?? [text];
  let offset = 0;
  for (const p of pieces) {
    if (p.length === 0) continue;
    detector.push?.(p, offset);
    offset += p.length;
  }
  const view = { length: text.length, slice: (a: number, b: number) => text.slice(a, b) };
  const figures = detector.figures(view);
  const findings = detector.judge(figures, {
    thresholds: { ...DEFAULT_THRESHOLDS, ...o.thresholds },
    chars: text.length,
    finishReason: o.finishReason ?? null,
  });
  return { figures, findings };
}
