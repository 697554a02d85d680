/** Something with unread bytes: reads one slice and says whether more is left. */
export interface PacedReader {
  readSlice(): boolean;
}

/**
 * Shares one time budget per turn of the event loop among the reads of every stream. A read
 * that arrives while the budget lasts is read at once; otherwise its reader waits in a
 * round-robin line that a setImmediate works through, one slice a reader, until the budget is
 * spent (always at least one slice, so nothing waits forever), then yields to timers and
 * sockets (health checks, cron ticks, /metrics) and goes on in the next turn. However many
 * streams there are and however fast they come, a turn spends about `budgetMs` on them.
 */
export class ReadPacer {
  private spentMs = 0;
  private readonly line: PacedReader[] = [];
  private readonly waiting = new Set<PacedReader>();
  private scheduled = false;

  constructor(
    readonly budgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True while this turn's budget lasts. */
  hasBudget(): boolean {
    return this.spentMs < this.budgetMs;
  }

  /** Runs `fn` now, counting its time against this turn's budget. */
  charge(fn: () => void): void {
    const t0 = this.now();
    try {
      fn();
    } finally {
      this.spentMs += this.now() - t0;
      this.schedule();
    }
  }

  /** Puts a reader in line (once); its slices are read in the coming turns. */
  enqueue(reader: PacedReader): void {
    if (this.waiting.has(reader)) return;
    this.waiting.add(reader);
    this.line.push(reader);
    this.schedule();
  }

  /** Readers in line. */
  get length(): number {
    return this.line.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.turn());
  }

  private turn(): void {
    this.scheduled = false;
    let first = true;
    while (this.line.length > 0 && (first || this.spentMs < this.budgetMs)) {
      first = false;
      const reader = this.line.shift()!;
      const t0 = this.now();
      let more = false;
      try {
        more = reader.readSlice();
      } finally {
        this.spentMs += this.now() - t0;
        if (more) this.line.push(reader);
        else this.waiting.delete(reader);
      }
    }
    this.spentMs = 0;
    if (this.line.length > 0) this.schedule();
  }
}
