import { OutputRate, slowWindowMs } from './outputRate.js';

/**
 * The minimum output rate of one call (outputRate.ts) with its window timer, which runs from
 * the first output on. `waiting` says the judgement is put off to the next window (output
 * received but not read yet, as the pacer shares the loop between streams, or a stream that
 * already said [DONE]).
 */
export class OutputFloor {
  private readonly windowMs: number | null;
  private readonly rate: OutputRate;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    slowSeconds: number | undefined,
    private readonly waiting: () => boolean,
    private readonly tooSlow: (message: string) => void,
  ) {
    this.windowMs = slowWindowMs(slowSeconds);
    this.rate = new OutputRate((this.windowMs ?? 0) / 1000);
  }

  /** Output text of an event stream arrived; `done` when the stream has said [DONE] (then the windows end). */
  output(text: string, done: boolean): void {
    const { windowMs } = this;
    if (done) this.stop();
    if (windowMs === null || text === '' || done) return;
    if (this.rate.output(Buffer.byteLength(text, 'utf8'))) this.timer = setInterval(() => this.windowEnded(), windowMs);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private windowEnded(): void {
    if (this.waiting()) return;
    const message = this.rate.windowEnded();
    if (message !== null) this.tooSlow(message);
  }
}
