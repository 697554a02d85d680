/**
 * An open-addressed table of 32-bit values, reused by every call: each use takes a new stamp,
 * and a slot of another stamp is empty, so nothing is cleared or allocated per call (a Set of
 * hashes, most of them outside V8's small integers, cost more than the counting).
 */
export class IntTable {
  readonly mask: number;
  readonly keys: Int32Array;
  readonly stampOf: Int32Array;
  stamp = 0;
  constructor(slots: number) {
    this.mask = slots - 1;
    this.keys = new Int32Array(slots);
    this.stampOf = new Int32Array(slots);
  }
  /** Starts a new use: every slot reads empty. */
  clear(): void {
    if (this.stamp === 0x7fffffff) {
      this.stampOf.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
  }
}
