import type { Simulator } from '../../src/simulator/index.js';

/** POSTs a chat completion; defaults to a streamed request with usage. */
export function postChat(sim: Simulator, body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${sim.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content: 'Write a long technical article.' }],
      stream: true,
      stream_options: { include_usage: true },
      ...body,
    }),
    ...(signal ? { signal } : {}),
  });
}

export type NextEvent = { data: string } | 'end' | 'idle';

/** Reads SSE `data:` payloads one at a time, with an idle timeout per read. */
export class SseReader {
  raw = '';
  private buffer = '';
  private readonly queue: string[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private pending: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | null = null;

  constructor(response: Response) {
    if (!response.body) throw new Error('response has no body');
    this.reader = response.body.getReader();
  }

  /** The next payload, 'end' at EOF, 'idle' if nothing arrived in idleMs. Rejects when the connection fails. */
  async next(idleMs = 5000): Promise<NextEvent> {
    for (;;) {
      const queued = this.queue.shift();
      if (queued !== undefined) return { data: queued };
      this.pending ??= this.reader.read();
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<'idle'>((resolve) => {
        timer = setTimeout(() => resolve('idle'), idleMs);
      });
      const result = await Promise.race([this.pending, idle]).finally(() => clearTimeout(timer));
      if (result === 'idle') return 'idle';
      this.pending = null;
      if (result.done) return 'end';
      const text = this.decoder.decode(result.value, { stream: true });
      this.raw += text;
      this.buffer += text;
      for (let boundary = this.buffer.indexOf('\n\n'); boundary >= 0; boundary = this.buffer.indexOf('\n\n')) {
        const event = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        this.queue.push(data);
      }
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

export interface ChunkChoice {
  index: number;
  delta: { role?: string; content?: string; reasoning_content?: string };
  logprobs: null;
  finish_reason: string | null;
}

export interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: ChunkChoice[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface StreamSummary {
  payloads: string[];
  chunks: Chunk[];
  /** Text of each content delta, in order (the role chunk's empty content excluded). */
  contentDeltas: string[];
  reasoningDeltas: string[];
  finishReason: string | null;
  usage: Chunk['usage'] | null;
  sawDone: boolean;
  raw: string;
}

/** Reads a whole stream (bounded by idleMs between reads) and sorts out its chunks. */
export async function readStream(response: Response, idleMs = 5000): Promise<StreamSummary> {
  const reader = new SseReader(response);
  const payloads: string[] = [];
  for (;;) {
    const event = await reader.next(idleMs);
    if (event === 'idle') throw new Error(`stream idle for ${idleMs} ms`);
    if (event === 'end') break;
    payloads.push(event.data);
  }
  return summarize(payloads, reader.raw);
}

export function summarize(payloads: string[], raw = ''): StreamSummary {
  const summary: StreamSummary = {
    payloads,
    chunks: [],
    contentDeltas: [],
    reasoningDeltas: [],
    finishReason: null,
    usage: null,
    sawDone: false,
    raw,
  };
  for (const payload of payloads) {
    if (payload === '[DONE]') {
      summary.sawDone = true;
      continue;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(payload) as Chunk;
    } catch {
      continue;
    }
    summary.chunks.push(chunk);
    if (chunk.usage) summary.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      if (choice.delta.role === undefined && typeof choice.delta.content === 'string') summary.contentDeltas.push(choice.delta.content);
      if (typeof choice.delta.reasoning_content === 'string') summary.reasoningDeltas.push(choice.delta.reasoning_content);
      if (choice.finish_reason) summary.finishReason = choice.finish_reason;
    }
  }
  return summary;
}

/** Polls until `check` is true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
