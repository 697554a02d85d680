import { NON_SSE_PROGRESS_BYTES } from './streamChat.js';

/**
 * The idle rule of streamChat for a client that reads the body as text (httpExchange): once the
 * headers are in, only output resets the idle timer. In an event stream that is a complete
 * `data:` event carrying a token (content, reasoning or a tool call), a usage or error object,
 * or `[DONE]`; SSE comments, keep-alives, empty deltas and an event still arriving a byte at a
 * time are not. A body that is not an event stream progresses by NON_SSE_PROGRESS_BYTES. Without
 * this a server sending one byte a second, or only `: ping` comments, held the request (and
 * its sample slot) until the total timeout.
 */
export class OutputProgress {
  /** Body bytes read since the last progress: what the idle message reports. */
  bytesSinceProgress = 0;
  private line = '';

  constructor(readonly sse: boolean) {}

  /** What the idle timeout's message says was missing. */
  get missing(): string {
    return this.sse ? 'no output token' : `fewer than ${NON_SSE_PROGRESS_BYTES} bytes of body`;
  }

  /** A read of the body (its decoded text and its size in bytes); true when it made progress. */
  push(text: string, bytes: number): boolean {
    this.bytesSinceProgress += bytes;
    let progressed = false;
    if (!this.sse) {
      progressed = this.bytesSinceProgress >= NON_SSE_PROGRESS_BYTES;
    } else {
      const lines = (this.line + text).split(/\r\n|\r|\n/);
      this.line = lines.pop() ?? '';
      // a line that never ends is not an event: bounded, so a 10 MB line costs no more than its reading
      if (this.line.length > 1 << 20) this.line = this.line.slice(-(1 << 20));
      for (const l of lines) if (l.startsWith('data:') && dataCarriesOutput(l.slice(5).trim())) progressed = true;
    }
    if (progressed) this.bytesSinceProgress = 0;
    return progressed;
  }
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0);

/** An SSE data payload that carries output: a token, a usage or error object, [DONE]; JSON that is not an object counts too (the checks judge it). */
export function dataCarriesOutput(payload: string): boolean {
  if (payload === '[DONE]') return true;
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    return payload !== '';
  }
  if (typeof event !== 'object' || event === null) return true;
  const e = event as { choices?: unknown; usage?: unknown; error?: unknown };
  if ((e.usage !== undefined && e.usage !== null) || e.error !== undefined) return true;
  if (!Array.isArray(e.choices)) return false;
  return e.choices.some((c: unknown) => {
    const choice = (typeof c === 'object' && c !== null ? c : {}) as { delta?: unknown; message?: unknown; finish_reason?: unknown };
    const d = (typeof choice.delta === 'object' && choice.delta !== null ? choice.delta : {}) as Record<string, unknown>;
    return (
      nonEmpty(d['content']) ||
      nonEmpty(d['reasoning_content']) ||
      nonEmpty(d['reasoning']) ||
      nonEmpty(d['reasoning_details']) ||
      nonEmpty(d['tool_calls']) ||
      choice.message !== undefined ||
      (typeof choice.finish_reason === 'string' && choice.finish_reason !== '')
    );
  });
}
