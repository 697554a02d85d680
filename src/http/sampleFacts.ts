import { fmt } from '../core/detectors/loops.js';
import type { SampleResult } from '../probe/probeTypes.js';

/**
 * A sample's facts as the run page, the probe report and the progress lines all word them,
 * so that no two of them tell a person different things.
 */

/** The finish reason; a stream the daemon closed itself has none, and says why. */
export function finishText(s: Pick<SampleResult, 'finishReason' | 'aborted'>): string | null {
  return s.finishReason ?? (s.aborted ? 'closed early: collapse certain' : null);
}

/** The temperature the request carried, or that none was (the server's default applied). */
export function temperatureText(s: Pick<SampleResult, 'temperature' | 'temperatureSent'>): string | null {
  if (s.temperature === undefined) return null;
  return s.temperatureSent === false ? `not sent (server default; ${s.temperature} asked)` : String(s.temperature);
}

/** Copies of a loop as its reason counts them ("repeated 8.9 times"). */
export function copiesText(copies: number): string {
  return fmt(copies, 1);
}
