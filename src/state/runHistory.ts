import type { RunResult, SampleVerdict } from '../probe/probeTypes.js';

export interface RunFilter {
  target?: string;
  probe?: string;
  verdict?: SampleVerdict;
  limit?: number;
}

/** The last `capacity` runs, newest first, in memory. Bounded: the oldest run is dropped first. */
export class RunHistory {
  private readonly runs: RunResult[] = [];

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`RunHistory capacity must be a positive integer, got ${capacity}`);
  }

  add(run: RunResult): void {
    this.runs.unshift(run);
    if (this.runs.length > this.capacity) this.runs.length = this.capacity;
  }

  get(id: string): RunResult | undefined {
    return this.runs.find((r) => r.id === id);
  }

  list(filter: RunFilter = {}): RunResult[] {
    const out: RunResult[] = [];
    const limit = filter.limit ?? this.capacity;
    for (const r of this.runs) {
      if (out.length >= limit) break;
      if (filter.target && r.target !== filter.target) continue;
      if (filter.probe && r.probe !== filter.probe) continue;
      if (filter.verdict && r.verdict !== filter.verdict) continue;
      out.push(r);
    }
    return out;
  }

  /** Drops the runs of targets or probes that are no longer configured. */
  retain(keep: (run: RunResult) => boolean): void {
    const kept = this.runs.filter(keep);
    this.runs.length = 0;
    this.runs.push(...kept);
  }
}
