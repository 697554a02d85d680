import type { SampleVerdict } from '../probe/probeTypes.js';

/**
 * The last `size` analysed sample verdicts of each target/probe, for
 * coherency_degeneration_ratio. Errors are left out: an unreachable target
 * says nothing about degeneration and has its own error counter.
 */
export class VerdictWindow {
  private readonly windows = new Map<string, SampleVerdict[]>();

  constructor(private size: number) {}

  resize(size: number): void {
    this.size = size;
    for (const w of this.windows.values()) if (w.length > size) w.splice(0, w.length - size);
  }

  /** Adds a verdict and returns the new failed share (0..1), or null when the window holds no analysed sample. */
  add(key: string, verdict: SampleVerdict): number | null {
    let w = this.windows.get(key);
    if (!w) {
      w = [];
      this.windows.set(key, w);
    }
    if (verdict !== 'error') {
      w.push(verdict);
      if (w.length > this.size) w.shift();
    }
    return this.ratio(key);
  }

  ratio(key: string): number | null {
    const w = this.windows.get(key);
    if (!w || w.length === 0) return null;
    let failed = 0;
    for (const v of w) if (v === 'fail') failed++;
    return failed / w.length;
  }

  /** Forgets `key` and every key under it (`key` + NUL + ..., the per-temperature windows of a sweep). */
  delete(key: string): void {
    this.windows.delete(key);
    for (const k of this.windows.keys()) if (k.startsWith(`${key}\u0000`)) this.windows.delete(k);
  }
}
