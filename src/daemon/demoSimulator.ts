import type { Logger } from 'pino';
import type { Config } from '../config/types.js';
import type { Simulator } from '../simulator/index.js';
import { listenError } from './listenError.js';

/** Where the simulator was asked to listen, and where it does. */
export interface SimulatorMove {
  host: string;
  from: number;
  to: number;
}

/** Names a host answers to on this machine: a target may name the simulator by any of them. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const ANY = new Set(['0.0.0.0', '::']);

function sameHost(urlHost: string, simHost: string): boolean {
  const host = urlHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const sim = simHost.toLowerCase();
  return host === sim || (LOOPBACK.has(host) && (LOOPBACK.has(sim) || ANY.has(sim)));
}

/**
 * The config with every target that points at the simulator's configured address (its host, or
 * a loopback name, and its port) pointed at the port it listens on; other targets as they were.
 * Pure: applied at start and to every reloaded config, so a reload keeps the targets on it.
 */
export function followSimulator(config: Config, move: SimulatorMove | null): { config: Config; moved: string[] } {
  if (move === null || move.from === move.to) return { config, moved: [] };
  const moved: string[] = [];
  const targets = config.targets.map((t) => {
    const url = new URL(t.baseUrl);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (url.protocol !== 'http:' || port !== move.from || !sameHost(url.hostname, move.host)) return t;
    url.port = String(move.to);
    moved.push(t.name);
    // URL adds a slash to a bare origin; the configured path is kept as written
    const baseUrl = t.baseUrl.replace(/^(https?:\/\/[^/?#]*)/i, `${url.protocol}//${url.host}`);
    return { ...t, baseUrl };
  });
  return { config: { ...config, targets }, moved };
}

/**
 * Starts the built-in simulator. Its port taken (a second demo, or anything else on 8089) is
 * not a reason to stop: it listens on a free port instead, says which, and the caller moves
 * the targets that point at it (followSimulator). Other listen failures stop start-up.
 */
export async function startDemoSimulator(config: Config, logger: Logger): Promise<{ simulator: Simulator; move: SimulatorMove }> {
  const { startSimulator } = await import('../simulator/index.js');
  const { host, port, tokensPerSecond } = config.simulator;
  const start = (at: number) => startSimulator({ host, port: at, tokensPerSecond });
  let simulator: Simulator;
  try {
    simulator = await start(port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw listenError(err, 'simulator', host, port);
    simulator = await start(0).catch((again: unknown) => {
      throw listenError(again, 'simulator', host, 0);
    });
    const move = { host, from: port, to: simulator.port };
    const moved = followSimulator(config, move).moved;
    logger.warn(
      { url: simulator.url, port: simulator.port, taken: port, targets: moved },
      `simulator port ${port} is taken: the simulator listens on ${simulator.url} instead` +
        (moved.length === 1 ? `; the target on ${host}:${port} follows it` : `; the ${moved.length} targets on ${host}:${port} follow it`),
    );
    return { simulator, move };
  }
  return { simulator, move: { host, from: port, to: simulator.port } };
}
