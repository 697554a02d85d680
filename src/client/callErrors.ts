import { isRunDeadline } from './runDeadline.js';
import type { StreamErrorType } from './streamTypes.js';

/** An error's stable code (undici's, the OS's), looked for through its causes; '' if none. */
export function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const cause = (err as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== err) return errorCode(cause);
  }
  return '';
}

/** An error's message, led by its code when the message does not name it already. */
export function errorText(err: unknown): string {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  return code !== '' && !message.includes(code) ? `${code}: ${message}` : message;
}

/** undici's (and the OS's) codes for a connect that timed out, and for its own header/body timers. */
const CONNECT_TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const IDLE_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The error a failed connection ends the call with, by where it failed; null when the stream
 * had already said [DONE] (a server that then drops the connection is not at fault).
 */
export function connectionError(
  err: unknown,
  phase: 'connecting' | 'waiting' | 'body' | 'settled',
  done: boolean,
): { type: StreamErrorType; message: string } | null {
  const code = errorCode(err);
  // undici ends a request that HTTP_PROXY / HTTPS_PROXY refused (407, or a tunnel it would not
  // open) with an error of its own, whatever the phase: the target was never reached
  if (!done && isProxyRefusal(err)) return { type: 'connect', message: `the proxy refused the request: ${errorText(err)}` };
  if (phase === 'connecting') {
    if (CONNECT_TIMEOUT_CODES.has(code)) return { type: 'timeout_connect', message: `connect timed out: ${errorText(err)}` };
    return { type: 'connect', message: `connect failed: ${errorText(err)}` };
  }
  if (IDLE_TIMEOUT_CODES.has(code)) return { type: 'timeout_idle', message: `dispatcher timeout: ${errorText(err)}` };
  if (done) return null;
  const where = phase === 'waiting' ? 'before response headers' : 'mid-stream';
  return { type: 'truncated', message: `connection lost ${where}: ${errorText(err)}` };
}

/** undici's errors for a proxy that answered 407 or would not open a tunnel (no stable code of their own). */
function isProxyRefusal(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /^Proxy Authentication Required \(407\)$|^Proxy response \(\d{3}\) !== 200 when HTTP Tunneling$/.test(message);
}

/**
 * The error of a call its signal aborted: the run's deadline is the target's error (it held
 * its slot too long), anything else the caller's (a shutdown, a cancelled run).
 */
export function abortError(reason: unknown, before: boolean): { type: StreamErrorType; message: string } {
  if (isRunDeadline(reason)) return { type: 'timeout_run', message: before ? `${reason.message} before the request` : reason.message };
  return { type: 'aborted', message: `aborted by caller${before ? ' before the request' : ''}${reasonText(reason)}` };
}

function reasonText(reason: unknown): string {
  if (reason === undefined) return '';
  if (reason instanceof Error && reason.name === 'AbortError') return '';
  const text = reason instanceof Error ? reason.message : String(reason);
  return text === '' ? '' : `: ${text}`;
}

/** The error of a call whose timer ran out. */
export function timeoutError(timer: 'connect' | 'total' | 'headers', seconds: number): { type: StreamErrorType; message: string } {
  if (timer === 'connect') return { type: 'timeout_connect', message: `no connection within ${seconds} s` };
  if (timer === 'total') return { type: 'timeout_total', message: `stream not finished within ${seconds} s` };
  return { type: 'timeout_idle', message: `no response headers for ${seconds} s` };
}
