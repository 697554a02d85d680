import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { SseMessage } from '../core/streamAccumulator.js';

/**
 * The SSE layer of the stream client: text in, framed messages out (events and comments), in
 * order. A line or an event cut anywhere between two feeds, a CRLF cut between its CR and LF
 * included, is held until its end arrives.
 */
export class SseEvents {
  private readonly parser: EventSourceParser;
  private out: SseMessage[] = [];

  constructor() {
    this.parser = createParser({
      onEvent: (event) => this.out.push({ event: event.event, data: event.data }),
      onComment: (comment) => this.out.push({ comment: true, data: comment }),
    });
  }

  /** The messages that `text` completes. */
  feed(text: string): SseMessage[] {
    if (text !== '') this.parser.feed(text);
    return this.take();
  }

  /**
   * End of input: a last line without its line feed and a last event without its blank line
   * (some servers end with "data: [DONE]" and no newline) are dispatched as they are.
   */
  end(): SseMessage[] {
    this.parser.feed('\n\n');
    this.parser.reset();
    return this.take();
  }

  private take(): SseMessage[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}
