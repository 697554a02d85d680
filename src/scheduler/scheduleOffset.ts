/**
 * How far after its cron tick a target × probe pair starts, so that the runs of one schedule
 * spread over its interval instead of all starting in the same second (50 targets on
 * "every 5 s" were 50 streams opened at once, then nothing). The offset is a hash of the
 * pair, so it is the same at every tick, after every reload and on every replica: the gap
 * between two runs of a pair stays the schedule's, and staleness checks are not fooled.
 */

/** Offsets stay below this, however long the interval: an hourly or daily probe still starts within minutes of its time. */
export const MAX_SCHEDULE_OFFSET_SECONDS = 300;

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Milliseconds to wait after a tick: in [0, min(shortest gap between two ticks, 300 s)).
 * `gapSeconds` null or not positive (a schedule whose ticks could not be listed) gives 0.
 */
export function scheduleOffsetMs(target: string, probe: string, gapSeconds: number | null): number {
  if (gapSeconds === null || !(gapSeconds > 0)) return 0;
  const spreadMs = Math.min(gapSeconds, MAX_SCHEDULE_OFFSET_SECONDS) * 1000;
  const fraction = fnv1a(`${target}\u0000${probe}`) / 2 ** 32;
  return Math.floor(fraction * spreadMs);
}
