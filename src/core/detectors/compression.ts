/** gzip ratios of the whole text and of 4 KB windows: reported; only a near-total collapse decides (loops are found by position instead). */
import { CompressionTracker, type CompressionFigures } from '../compression.js';
import { finding, type Finding } from '../finding.js';
import type { TextStore } from '../textStore.js';
import type { JudgeContext, TextView } from './detector.js';
import { fmt } from './loops.js';

export class CompressionDetector {
  readonly name = 'compression';
  private readonly tracker: CompressionTracker;

  constructor(store: TextStore) {
    this.tracker = new CompressionTracker(store);
  }

  push(delta: string, offset: number): void {
    this.tracker.advance(offset + delta.length);
  }

  figures(view: TextView): CompressionFigures {
    return this.tracker.figures(view.length);
  }

  judge(c: CompressionFigures, ctx: JudgeContext): Finding[] {
    const t = ctx.thresholds;
    const out: Finding[] = [];
    if (c.ratio < t.compressionRatioFail)
      out.push(finding('low_compression', 'fail', -1, `whole text gzips to ${fmt(c.ratio, 3)} of its size`));
    else if (c.ratio < t.compressionRatioWarn)
      out.push(finding('low_compression', 'warn', -1, `whole text gzips to ${fmt(c.ratio, 3)} of its size`));
    const rel = c.medianWindow > 0 ? c.minWindow / c.medianWindow : 1;
    if (c.windows >= 2 && c.minWindow < t.windowCompressionFail && rel < t.windowCompressionRelFail) {
      out.push(
        finding(
          'low_compression',
          'warn',
          c.minWindowStart,
          `the 4 KB window at char ${c.minWindowStart} gzips to ${fmt(c.minWindow, 3)}, the median window to ${fmt(c.medianWindow, 3)}`,
        ),
      );
    }
    return out;
  }
}
