import type { Dispatcher } from 'undici';
import type { PacedReader, ReadPacer } from './readPacer.js';
import { errorText } from './callErrors.js';

/**
 * Bytes of a response read (parsed and analysed) in one go. A network read can carry 64 KiB
 * or more, several hundred tokens of a fast server, and with dozens of streams those reads
 * added up to seconds in which nothing else ran (health checks, timers, cron ticks). Reads
 * are cut into slices and paced (ReadPacer): the loop stays responsive however fast the
 * streams are.
 */
export const READ_SLICE_BYTES = 16 * 1024;
/** Unread bytes above which the socket is paused (TCP backpressure reaches the server) until they are read. */
const PAUSE_BACKLOG_BYTES = 256 * 1024;

/** What the backlog reads for. */
export interface BacklogReader {
  /** Reads one piece of the body, in order. */
  read(chunk: Buffer, atMs: number): void;
  settled(): boolean;
  /** A read threw outside undici's callback: the call ends with this message. */
  readFailed(message: string): void;
}

/**
 * The body's bytes received and not yet read, each with its arrival time (so token gaps are
 * the network's, not our queue's), read in slices as the pacer allows.
 */
export class ReadBacklog implements PacedReader {
  private queue: Array<{ chunk: Buffer; atMs: number }> = [];
  private bytes = 0;
  private controller: Dispatcher.DispatchController | null = null;
  /** The end or error of the response, applied once the backlog is read. */
  private afterBacklog: (() => void) | null = null;

  constructor(
    private readonly pacer: ReadPacer,
    private readonly reader: BacklogReader,
  ) {}

  /** True while received bytes wait to be read (then a silent stream is our queue, not the server's stall). */
  pending(): boolean {
    return this.queue.length > 0;
  }

  /** Reads `chunk` now while the pacer's budget lasts, else queues it (pausing the socket when too much waits). */
  add(controller: Dispatcher.DispatchController, chunk: Buffer, atMs: number): void {
    if (this.queue.length === 0 && chunk.byteLength <= READ_SLICE_BYTES && this.pacer.hasBudget()) {
      this.pacer.charge(() => this.reader.read(chunk, atMs));
      return;
    }
    this.controller = controller;
    this.queue.push({ chunk, atMs });
    this.bytes += chunk.byteLength;
    if (this.bytes > PAUSE_BACKLOG_BYTES && !controller.paused) controller.pause();
    this.pacer.enqueue(this);
  }

  /** Runs `then` (the response's end or error) now, or after the backlog is read. */
  whenRead(then: () => void): void {
    if (this.queue.length === 0) then();
    else this.afterBacklog = then;
  }

  /** Drops what waits (the call settled). */
  clear(): void {
    this.queue = [];
    this.bytes = 0;
    this.afterBacklog = null;
  }

  /** Reads READ_SLICE_BYTES of the backlog (the pacer calls it); true while more is left. */
  readSlice(): boolean {
    let budget = READ_SLICE_BYTES;
    while (budget > 0 && this.queue.length > 0 && !this.reader.settled()) {
      const head = this.queue[0]!;
      let part = head.chunk;
      if (part.byteLength > budget) {
        part = head.chunk.subarray(0, budget);
        head.chunk = head.chunk.subarray(budget);
      } else {
        this.queue.shift();
      }
      this.bytes -= part.byteLength;
      budget -= part.byteLength;
      try {
        this.reader.read(part, head.atMs);
      } catch (err) {
        // read outside undici's callback: a fault here must end this call, not the process
        this.reader.readFailed(`stream could not be read: ${errorText(err)}`);
      }
    }
    if (this.reader.settled()) {
      this.clear();
      return false;
    }
    if (this.queue.length > 0) return true;
    // resume() can hand over what undici holds at once, the response's end included: read that first
    if (this.controller?.paused) this.controller.resume();
    if (this.queue.length > 0 || this.reader.settled()) return this.queue.length > 0 && !this.reader.settled();
    const then = this.afterBacklog;
    this.afterBacklog = null;
    then?.();
    return false;
  }
}
