import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { streamChat } from './client/streamChat.js';
import type { Config } from './config/types.js';
import { buildApp } from './http/buildApp.js';
import { createMetrics } from './metrics/createMetrics.js';
import { createScheduler } from './scheduler/createScheduler.js';
import { ProbeService } from './scheduler/probeService.js';
import { startSimulator } from './simulator/index.js';
import { RunHistory } from './state/runHistory.js';
import { VERSION } from './version.js';

export interface DaemonOptions {
  config: Config;
  logger: Logger;
  env: Record<string, string | undefined>;
  /** Override config.server (CLI flags). */
  host?: string;
  port?: number;
  historySize?: number;
}

export interface Daemon {
  /** http://host:port of the HTTP API. */
  url: string;
  /** Simulator base URL when the config starts one. */
  simulatorUrl: string | null;
  close(): Promise<void>;
}

/**
 * The composition root: the only place that creates real I/O objects (undici client,
 * listening sockets, cron tasks, the simulator) and wires them together.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, logger } = options;
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: VERSION });
  const shutdown = new AbortController();

  const simulator = config.simulator.enabled
    ? await startSimulator({ host: config.simulator.host, port: config.simulator.port, tokensPerSecond: config.simulator.tokensPerSecond })
    : null;
  if (simulator) logger.info({ url: simulator.url }, 'simulator listening');

  const history = new RunHistory(options.historySize ?? 200);
  const service = new ProbeService({
    config,
    probe: { stream: streamChat, env: options.env, now: Date.now, logger, newId: randomUUID, signal: shutdown.signal },
    metrics,
    history,
    logger,
  });
  const scheduler = createScheduler(service, metrics, logger);
  let ready = false;
  const app = buildApp({ service, registry, history, logger, version: VERSION, isReady: () => ready });

  const host = options.host ?? config.server.host;
  const port = options.port ?? config.server.port;
  try {
    await app.listen({ host, port });
  } catch (err) {
    await simulator?.close();
    throw err;
  }
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  scheduler.apply(config);
  ready = true;
  logger.info({ url, targets: config.targets.length, probes: config.probes.length }, 'coherency-exporter listening');

  let closing: Promise<void> | null = null;
  return {
    url,
    simulatorUrl: simulator?.url ?? null,
    close() {
      closing ??= (async () => {
        ready = false;
        scheduler.stop();
        shutdown.abort(new Error('shutting down'));
        await app.close();
        await service.drain();
        await simulator?.close();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}
