import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  url: string;
  /** Resolves when the socket of the n-th request (0-based) has closed. */
  socketClosed(index?: number): Promise<void>;
  requests: { headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** A real node:http server on 127.0.0.1, port 0. close() destroys every socket it still holds. */
export async function startLoopback(handler: Handler): Promise<Loopback> {
  const sockets = new Set<import('node:net').Socket>();
  const closed: Promise<void>[] = [];
  const requests: Loopback['requests'] = [];
  const server = http.createServer((req, res) => {
    const socket = req.socket;
    closed.push(
      new Promise((resolve) => {
        if (socket.destroyed) resolve();
        else socket.once('close', () => resolve());
      }),
    );
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      requests.push({ headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    requests,
    async socketClosed(index = 0) {
      // The request may still be in flight when asked; wait until the handler ran.
      while (closed[index] === undefined) await new Promise((r) => setTimeout(r, 5));
      await closed[index];
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function unusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function sseHeaders(res: http.ServerResponse, status = 200): void {
  res.writeHead(status, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
}

export function chunk(content: string, extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-t',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    ...extra,
  })}\n\n`;
}

export function finishChunk(reason = 'stop'): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-t',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: reason }],
  })}\n\n`;
}

export function usageChunk(prompt: number, completion: number): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-t',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  })}\n\n`;
}
