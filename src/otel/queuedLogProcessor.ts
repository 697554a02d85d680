import type { LogRecordExporter, LogRecordProcessor, ReadableLogRecord, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';

/** What the export counts: records sent, and records dropped with why (the daemon's prom-client counters). */
export interface ExportCounts {
  exported(signal: 'logs' | 'metrics', records: number): void;
  dropped(signal: 'logs' | 'metrics', reason: 'queue_full' | 'export_failed', records: number): void;
}

export interface QueueOptions {
  /** Records waiting at most; past it a new one is dropped (queue_full). */
  maxQueueSize: number;
  /** Records sent in one request at most. */
  maxBatchSize: number;
  /** Milliseconds between exports of what waits. */
  intervalMs: number;
  /** Milliseconds one export may take; past it its records count as failed. */
  timeoutMs: number;
}

const SUCCESS = 0; // ExportResultCode.SUCCESS of @opentelemetry/core

/**
 * A log record processor that never makes its caller wait: records go into a bounded queue and
 * a timer sends them in batches, one export at a time, each cut at the timeout. The SDK's own
 * batch processor drops silently; this one counts every record it drops (queue full, export
 * failed or timed out), so that a collector that is down shows on /metrics.
 */
export class QueuedLogProcessor implements LogRecordProcessor {
  private queue: ReadableLogRecord[] = [];
  private sending: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly exporter: LogRecordExporter,
    private readonly options: QueueOptions,
    private readonly counts: ExportCounts,
  ) {
    this.timer = setInterval(() => void this.sendOnce(), options.intervalMs);
    this.timer.unref(); // a daemon closes it; a test that forgets to must still exit
  }

  /** Records waiting now (tests, and the bench). */
  get waiting(): number {
    return this.queue.length;
  }

  onEmit(record: ReadWriteLogRecord): void {
    if (this.stopped || this.queue.length >= this.options.maxQueueSize) {
      this.counts.dropped('logs', 'queue_full', 1);
      return;
    }
    this.queue.push(record as unknown as ReadableLogRecord);
    // a full batch goes at once rather than waiting for the timer
    if (this.queue.length >= this.options.maxBatchSize) void this.sendOnce();
  }

  /** Sends one batch unless one is in flight; resolves when that export ended (sent, failed or timed out). */
  private sendOnce(): Promise<void> {
    if (this.sending) return this.sending;
    if (this.queue.length === 0) return Promise.resolve();
    const batch = this.queue.splice(0, this.options.maxBatchSize);
    this.sending = new Promise<void>((resolve) => {
      let settled = false;
      const settle = (ok: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(cut);
        if (ok) this.counts.exported('logs', batch.length);
        else this.counts.dropped('logs', 'export_failed', batch.length);
        this.sending = null;
        resolve();
      };
      // the exporter has a timeout of its own; this one holds even if a callback never comes
      const cut = setTimeout(() => settle(false), this.options.timeoutMs + 100);
      try {
        this.exporter.export(batch, (result) => settle(result.code === SUCCESS));
      } catch {
        settle(false);
      }
    });
    return this.sending;
  }

  /** Sends everything waiting, batch after batch, until the queue is empty or `deadlineMs` (epoch ms) passes. */
  async flushUntil(deadlineMs: number): Promise<void> {
    while ((this.queue.length > 0 || this.sending) && Date.now() < deadlineMs) {
      await within(this.sendOnce(), deadlineMs - Date.now());
    }
  }

  async forceFlush(): Promise<void> {
    await this.flushUntil(Date.now() + this.options.timeoutMs);
  }

  /** Stops taking records, sends what waits within one timeout, and counts the rest as dropped. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await this.flushUntil(Date.now() + this.options.timeoutMs);
    if (this.queue.length > 0) this.counts.dropped('logs', 'export_failed', this.queue.splice(0).length);
    await within(
      this.exporter.shutdown().catch(() => {}),
      this.options.timeoutMs,
    );
  }
}

/**
 * The promise, or nothing after `ms`. The timer holds the event loop (a shutdown awaits this after
 * the server closed: an unref'd one would let the process end before the flush) and is cleared
 * as soon as the promise settles, so it never keeps a finished process alive.
 */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  } finally {
    clearTimeout(timer);
  }
}
