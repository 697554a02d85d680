import { Agent, type Dispatcher } from 'undici';
import type { ChatRequest } from './streamTypes.js';

/** setTimeout fires at once for delays over 2^31-1 ms; longer means "no limit" here anyway. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timeout in seconds as timer milliseconds; 0, negative or non-finite disables it (null). */
export function timerMs(seconds: number): number | null {
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.round(seconds * 1000)));
}

const agents = new Map<number, Agent>();

/** One shared pool per connect timeout, so undici's connect timer agrees with ours. */
export function defaultDispatcher(connectMs: number): Agent {
  let agent = agents.get(connectMs);
  if (agent === undefined) {
    agent = new Agent({ connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 });
    agents.set(connectMs, agent);
  }
  return agent;
}

/** Closes the pooled connections of the default dispatchers (daemon shutdown, after in-flight samples were aborted). */
export async function closeStreamDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.destroy()));
}

/**
 * The chat request as undici dispatch options, or the message `invalid request: …` for a URL
 * that is not http(s) or a body that is not JSON; the URL may carry a key in its query
 * string, so it is not repeated in the message.
 */
export function chatDispatch(request: ChatRequest): Dispatcher.DispatchOptions | string {
  let url: URL;
  let body: string;
  try {
    url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
    body = JSON.stringify(request.body);
  } catch (err) {
    return `invalid request: ${err instanceof Error ? err.message : String(err)}`;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v;
  // The daemon's own headers come last, so no configured header can replace them (the
  // config validator refuses them too). undici's dispatch does not decompress: ask for the
  // raw stream; a server that compresses anyway is decoded (bodyDecoder.ts).
  headers['content-type'] = 'application/json';
  headers['accept'] = 'text/event-stream';
  headers['accept-encoding'] = 'identity';
  return {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    headers,
    body,
    // Our own timers own these phases; a fresh connection per sample (reset) avoids
    // writing a long probe onto a keep-alive socket the server is about to close.
    headersTimeout: 0,
    bodyTimeout: 0,
    reset: true,
  };
}
