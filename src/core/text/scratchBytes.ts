/**
 * A scratch byte buffer for readers that copy a string through the runtime (flatString.ts,
 * utf16Units.ts): it grows to the largest request up to `keep` bytes and is kept between calls;
 * a larger request gets a buffer of its own, let go after (a daemon keeps no 20 MB buffer for
 * one large input).
 */
export class ScratchBytes {
  private held = Buffer.allocUnsafeSlow(0);

  constructor(private readonly keep: number) {}

  /** At least `bytes` bytes, valid until the next call. */
  get(bytes: number): Buffer {
    if (this.held.length >= bytes) return this.held;
    if (bytes > this.keep) return Buffer.allocUnsafeSlow(bytes);
    this.held = Buffer.allocUnsafeSlow(Math.min(this.keep, Math.max(bytes, 2 * this.held.length)));
    return this.held;
  }
}
