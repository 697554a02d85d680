import { parse } from 'yaml';
import { readBoundedFile } from '../files/readBoundedFile.js';
import { DEFAULTS } from './defaults.js';
import { CONFIG_MAX_BYTES } from './configMaxBytes.js';
import type { ConfigSource } from './loadConfig.js';

export interface ListenAddress {
  host: string;
  port: number;
  /** Where host and port were read: the config file, or the defaults. */
  from: string;
}

/**
 * Where `serve` listens for a config source, read leniently: only `server.host` and
 * `server.port`, without validating the rest, so that a health check keeps passing while a
 * running daemon keeps its last good config after a rejected reload. A wildcard listen address
 * is reached on loopback.
 */
export async function listenAddress(
  source: ConfigSource,
  read: (path: string) => Promise<string> = async (p) => (await readBoundedFile(p, { maxBytes: CONFIG_MAX_BYTES })).toString('utf8'),
): Promise<ListenAddress> {
  const fallback = { host: DEFAULTS.server.host, port: DEFAULTS.server.port };
  if (source.kind !== 'file') return { ...fallback, from: 'defaults (config from the environment)' };
  let server: Record<string, unknown> = {};
  try {
    const doc = parse(await read(source.path)) as unknown;
    const s = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>)['server'] : undefined;
    if (s !== null && typeof s === 'object') server = s as Record<string, unknown>;
  } catch {
    return { ...fallback, from: `defaults (${source.path} unreadable)` };
  }
  const port = typeof server['port'] === 'number' && Number.isInteger(server['port']) ? server['port'] : fallback.port;
  const host = typeof server['host'] === 'string' && server['host'] !== '' ? server['host'] : fallback.host;
  return { host: loopbackFor(host), port, from: source.path };
}

function loopbackFor(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host;
}
