/**
 * Where the abort check closes a text streamed as the daemon streams it: the benches that read
 * healthy files for false aborts (realWorld.ts, codeFiles.ts) share this walk.
 */
import { createStreamAnalyzer, type StreamAnalyzer } from '../src/core/streamAnalyzer.js';
import type { Finding } from '../src/core/detectors/finding.js';

/**
 * The first look at which `text`, pushed in `delta`-char deltas, is a certain collapse by the abort
 * check (certainCollapse after each delta, as the daemon looks every 32 tokens): the char its last
 * delta starts at and the finding; null when no look is. `confirm` may overrule a look (the walk
 * then goes on), as a full snapshot of the analyzer would.
 */
export function firstCertain(
  text: string,
  delta: number,
  confirm?: (live: StreamAnalyzer) => boolean,
): { at: number; finding: Finding } | null {
  const live = createStreamAnalyzer();
  for (let i = 0; i < text.length; i += delta) {
    live.push(text.slice(i, i + delta));
    const finding = live.certainCollapse();
    if (finding && (!confirm || confirm(live))) return { at: i, finding };
  }
  return null;
}
