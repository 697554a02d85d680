import { Agent, type Dispatcher } from 'undici';

export interface TargetTls {
  caFile: string | null;
  insecureSkipVerify: boolean;
}

/**
 * A connection pool for a target with its own TLS settings (a private CA, or
 * verification off for a lab server); undefined when the defaults apply.
 * The CA file is read here, once per config load.
 */
export function createTargetDispatcher(
  tls: TargetTls,
  connectSeconds: number,
  readFile: (path: string) => string | Buffer,
): Dispatcher | undefined {
  if (!tls.caFile && !tls.insecureSkipVerify) return undefined;
  return new Agent({
    connect: {
      timeout: Math.max(1, Math.round(connectSeconds * 1000)),
      ...(tls.caFile ? { ca: readFile(tls.caFile) } : {}),
      ...(tls.insecureSkipVerify ? { rejectUnauthorized: false } : {}),
    },
    // streamChat runs its own idle and total timers.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}
