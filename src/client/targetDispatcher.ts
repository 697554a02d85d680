import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { ProxyEnv } from './proxyEnv.js';

export interface TargetTls {
  caFile: string | null;
  insecureSkipVerify: boolean;
}

/**
 * A connection pool for a target with its own TLS settings (a private CA, or verification off
 * for a lab server) or reached through a proxy (proxyEnv.ts); undefined when the defaults apply.
 * The CA file is read here, once per config load.
 *
 * Through a proxy, an https target is reached through a CONNECT tunnel, with its TLS settings
 * applied to the target's certificate, not the proxy's; an http target is sent to the proxy as an
 * absolute-URI request, as curl does. The connect timeout bounds the connection to the proxy and
 * the TLS handshake with the target.
 */
export function createTargetDispatcher(
  tls: TargetTls,
  connectSeconds: number,
  readFile: (path: string) => string | Buffer,
  proxy: ProxyEnv | null = null,
): Dispatcher | undefined {
  if (!tls.caFile && !tls.insecureSkipVerify && !proxy) return undefined;
  const timeout = Math.max(1, Math.round(connectSeconds * 1000));
  const connect = {
    timeout,
    ...(tls.caFile ? { ca: readFile(tls.caFile) } : {}),
    ...(tls.insecureSkipVerify ? { rejectUnauthorized: false } : {}),
  };
  // streamChat runs its own idle and total timers.
  const pool = { connect, headersTimeout: 0, bodyTimeout: 0 };
  if (!proxy) return new Agent(pool);
  return new EnvHttpProxyAgent({
    ...pool,
    // "" rather than undefined: undici would read process.env for a missing one, and the
    // settings come from the environment the daemon was given.
    httpProxy: proxy.httpProxy ?? '',
    httpsProxy: proxy.httpsProxy ?? '',
    noProxy: proxy.noProxy,
    requestTls: connect,
    proxyTls: { timeout },
    proxyTunnel: false,
  });
}
