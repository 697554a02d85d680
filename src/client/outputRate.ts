/**
 * The minimum output rate of a stream: once the first output has come, every window of
 * `timeouts.slowSeconds` must carry at least MIN_OUTPUT_BYTES_PER_SECOND × slowSeconds bytes of
 * output text (content, reasoning or tool-call arguments, as UTF-8), else the stream ends with
 * `too_slow`. The idle timer alone let a server send one real one-character token a second and
 * hold its sample slot until totalSeconds (1,800 s by default). Counted in bytes, not tokens or
 * characters: a trickler controls how much text a delta carries, and a CJK character (3 bytes)
 * is about a token where an English token is about 4 bytes. Windows are counted by the caller's
 * timer (one call of windowEnded a window), so this class needs no clock.
 */

/**
 * The floor: 2 bytes a second. A slow CPU llama.cpp streams 2–5 tokens a second, 8–20 bytes
 * of English or 6–20 of CJK; even 1 token a second (a big model on a small machine) is about
 * 4 bytes. The floor sits at half of that, so only a stream that is no generation at all
 * (one character a second and less) is cut.
 */
export const MIN_OUTPUT_BYTES_PER_SECOND = 2;

/**
 * The default window, seconds: as long as the default idle timeout, so a pause a healthy server
 * may take (a queue, a long prefill mid-stream) fits in one window with room to spare.
 */
export const DEFAULT_SLOW_SECONDS = 60;

export class OutputRate {
  private windowBytes = 0;
  private started = false;

  constructor(
    readonly windowSeconds: number,
    readonly minBytesPerSecond: number = MIN_OUTPUT_BYTES_PER_SECOND,
  ) {}

  /** Bytes of output a window must carry. */
  get minBytes(): number {
    return Math.ceil(this.windowSeconds * this.minBytesPerSecond);
  }

  /** Output arrived (its UTF-8 bytes); true when it is the first, which opens the first window. */
  output(bytes: number): boolean {
    if (!(bytes > 0)) return false;
    const first = !this.started;
    this.started = true;
    this.windowBytes += bytes;
    return first;
  }

  /** A window has passed: the too_slow message when it carried fewer than minBytes, else null (the next window opens). */
  windowEnded(): string | null {
    if (!this.started) return null;
    const bytes = this.windowBytes;
    this.windowBytes = 0;
    if (bytes >= this.minBytes) return null;
    const rate = Math.round((bytes / this.windowSeconds) * 100) / 100;
    return (
      `${bytes} bytes of output in ${this.windowSeconds} s (${rate} bytes/s), under the floor of ` +
      `${this.minBytesPerSecond} bytes/s (timeouts.slowSeconds)`
    );
  }
}

/** The window in timer milliseconds, or null when slowSeconds disables the rule (absent, 0, negative, not finite). */
export function slowWindowMs(slowSeconds: number | undefined): number | null {
  const s = slowSeconds ?? DEFAULT_SLOW_SECONDS;
  if (!Number.isFinite(s) || s <= 0) return null;
  return Math.min(2 ** 31 - 1, Math.max(1, Math.round(s * 1000)));
}
