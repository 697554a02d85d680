import { isIP } from 'node:net';

/**
 * server.allowedHosts against DNS rebinding: a page on a name the attacker controls, re-pointed
 * at 127.0.0.1 (or a pod address), talks to the daemon as its own origin, so the browser's
 * origin checks never fire; only the Host header shows the name it used. A request whose Host
 * is not one of the daemon's names is refused on every route.
 *
 * An IP address in Host always passes: a rebound name is never an address, and a browser
 * sends an address only when the page itself was loaded from that address (so Prometheus and
 * kubelet probes by pod IP work without a list). `*` turns the check off; `*.example.com`
 * matches the names under example.com.
 */
export interface HostRule {
  /** null: any host (`*`). */
  names: ReadonlySet<string> | null;
  /** Suffixes of `*.name` entries, with their dot (".example.com"). */
  suffixes: readonly string[];
}

/** The names the daemon answers to when server.allowedHosts is not set. */
export function defaultHostNames(listenHost: string, machineHostname: string): string[] {
  const names = ['localhost', '*.localhost', machineHostname];
  if (isIP(listenHost.replace(/^\[(.*)\]$/, '$1')) === 0) names.push(listenHost);
  return names.filter((n) => n !== '');
}

export function hostRule(allowed: readonly string[]): HostRule {
  if (allowed.includes('*')) return { names: null, suffixes: [] };
  const names = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of allowed) {
    const e = entry.toLowerCase().replace(/\.$/, '');
    if (e.startsWith('*.')) suffixes.push(e.slice(1));
    else names.add(e);
  }
  return { names, suffixes };
}

/** The host name of a Host header value: without its port, brackets or trailing dot, lower case. */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colon = h.lastIndexOf(':');
  // one colon is a port; more is a bare IPv6 address (not valid in Host, but not a name either)
  const name = colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
  return name.replace(/\.$/, '');
}

/** Whether a request's Host header is one the daemon answers to. A missing Host (HTTP/1.0, not a browser) passes. */
export function hostAllowed(hostHeader: string | undefined, rule: HostRule): boolean {
  if (rule.names === null || hostHeader === undefined || hostHeader === '') return true;
  const name = hostName(hostHeader);
  if (isIP(name) !== 0) return true;
  return rule.names.has(name) || rule.suffixes.some((s) => name.endsWith(s) && name.length > s.length);
}
