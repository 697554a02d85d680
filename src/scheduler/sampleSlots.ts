/**
 * A global limit on samples in flight (server.maxConcurrentSamples): a counting semaphore,
 * first come first served. A sample holds a slot while it streams and gives it back when it
 * ends; a sample that finds every slot taken waits in line and starts when one is freed.
 */
export class SampleSlots {
  private held = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`limit must be an integer >= 1, got ${max}`);
  }

  get limit(): number {
    return this.max;
  }

  /** Slots taken now. */
  get inUse(): number {
    return this.held;
  }

  /** Samples waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Changes the limit (reload). Samples already streaming go on; a raised limit lets waiting ones start now. */
  setLimit(max: number): void {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`limit must be an integer >= 1, got ${max}`);
    this.max = max;
    this.wake();
  }

  /** Resolves with a release function once a slot is held; release exactly once (extra calls are ignored). */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      this.queue.push(() => {
        this.held++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.held--;
          this.wake();
        });
      });
      this.wake();
    });
  }

  private wake(): void {
    while (this.held < this.max && this.queue.length > 0) this.queue.shift()!();
  }
}
