import { REDACTED } from './redactSecrets.js';

/**
 * The proxy settings of target requests, read once at start-up from the environment the daemon
 * or the probe command is given, with the names and the precedence curl and undici use: the
 * lowercase variable wins over the uppercase one (http_proxy over HTTP_PROXY). HTTPS_PROXY is
 * for https targets and HTTP_PROXY for http ones; an https target goes through HTTP_PROXY when
 * HTTPS_PROXY is not set (undici's EnvHttpProxyAgent). NO_PROXY lists hosts (a leading dot or
 * `*.` for their subdomains, `:port` for one port) reached directly; `*` turns the proxy off.
 */
export interface ProxyEnv {
  /** The proxy of http targets (and of https ones without httpsProxy); null: none. */
  httpProxy: string | null;
  /** The proxy of https targets; null: httpProxy's. */
  httpsProxy: string | null;
  /** The hosts reached without a proxy, as the variable says ("" for none). */
  noProxy: string;
}

export type ProxyEnvResult = { ok: true; proxy: ProxyEnv | null } | { ok: false; error: string };

/** The proxy settings in `env`; proxy null when no proxy variable is set (or NO_PROXY is `*`). */
export function readProxyEnv(env: Record<string, string | undefined>): ProxyEnvResult {
  const pick = (name: string) => {
    for (const n of [name.toLowerCase(), name]) {
      const v = env[n]?.trim();
      if (v !== undefined && v !== '') return { name: n, value: v };
    }
    return null;
  };
  const http = pick('HTTP_PROXY');
  const https = pick('HTTPS_PROXY');
  const noProxy = pick('NO_PROXY')?.value ?? '';
  const errors: string[] = [];
  const parse = (v: { name: string; value: string } | null): string | null => {
    if (v === null) return null;
    const url = proxyUrlOf(v.value);
    if (typeof url === 'string') return url;
    errors.push(`${v.name}: ${url.error}`);
    return null;
  };
  const httpProxy = parse(http);
  const httpsProxy = parse(https);
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };
  if ((httpProxy === null && httpsProxy === null) || noProxy === '*') return { ok: true, proxy: null };
  return { ok: true, proxy: { httpProxy, httpsProxy, noProxy } };
}

/**
 * A proxy variable's value as a URL: `host:port` without a scheme means http, as curl reads it.
 * Only http and https proxies are taken; the message never repeats credentials the value holds.
 */
function proxyUrlOf(value: string): string | { error: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { error: `"${redactProxyUrl(value)}" is not a URL (write it as http://host:port)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `${url.protocol.slice(0, -1)} proxies are not supported: use an http:// or https:// proxy` };
  if (url.hostname === '') return { error: 'names no host (write it as http://host:port)' };
  return url.href;
}

/** A proxy URL as logs and messages show it: its user and password (the proxy's credentials) replaced. */
export function redactProxyUrl(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  const rest = value.slice(scheme.length);
  const slash = rest.search(/[/?#]/);
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf('@');
  return at < 0 ? value : `${scheme}${REDACTED}${rest.slice(at)}`;
}

/** What start-up logs of the proxy settings: where requests go, never the proxy's credentials. */
export function describeProxy(proxy: ProxyEnv): { httpProxy: string | null; httpsProxy: string | null; noProxy: string } {
  return {
    httpProxy: proxy.httpProxy === null ? null : redactProxyUrl(proxy.httpProxy),
    httpsProxy:
      proxy.httpsProxy === null ? (proxy.httpProxy === null ? null : redactProxyUrl(proxy.httpProxy)) : redactProxyUrl(proxy.httpsProxy),
    noProxy: proxy.noProxy,
  };
}
