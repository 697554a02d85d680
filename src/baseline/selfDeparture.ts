import type { SampleOutput, SelfDeparture } from './baselineFormat.js';
import { firstDeparture, type OutputComparison } from './firstDeparture.js';

/**
 * Where repeats of the same requests departed from the first run's outputs: the earliest
 * token over every sample of every repeat, null when all were identical. Comparing each
 * repeat with the first is enough: two outputs that agree with the first up to tokens i and j
 * agree with each other up to min(i, j) at least. A sample a repeat has no output for (it
 * errored) is left out; undefined when no sample could be compared at all (nothing measured).
 */
export function selfDeparture(first: readonly SampleOutput[], repeats: readonly (readonly SampleOutput[])[]): SelfDeparture | undefined {
  let compared = 0;
  let earliest: number | null = null;
  for (const repeat of repeats)
    for (const a of first) {
      const b = repeat.find((o) => o.sample === a.sample);
      if (!b) continue;
      compared++;
      const c = firstDeparture(a, b);
      if (!c.identical && (earliest === null || c.tokenIndex < earliest)) earliest = c.tokenIndex;
    }
  return compared === 0 ? undefined : { repeats: repeats.length + 1, tokenIndex: earliest };
}

/**
 * A departure from the baseline's output is a change of the build only when it comes earlier
 * than the build departed from itself; without that figure (one run, an earlier build's
 * baseline) every departure counts, as before it was measured.
 */
export function departureIsChange(c: OutputComparison, self: SelfDeparture | undefined): boolean {
  if (c.identical) return false;
  if (self === undefined || self.tokenIndex === null) return true;
  return c.tokenIndex < self.tokenIndex;
}

/** "never departed in 2 runs" / "departed at token 900 in 3 runs": the build's own spread, for the report. */
export function spreadText(self: SelfDeparture): string {
  return `${self.tokenIndex === null ? 'never departed' : `departed at token ${self.tokenIndex}`} in ${self.repeats} runs`;
}
