import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import type { Config } from './config/types.js';
import { followSimulator, startDemoSimulator } from './daemon/demoSimulator.js';
import { createReload, type ReloadResult } from './daemon/reloadConfig.js';
import { indexStoredRuns, openRunStorage, runStorageDir } from './daemon/runStorage.js';
import { firstRuns, startupLine } from './daemon/startupLine.js';
import { createTargetClients } from './daemon/targetClients.js';
import { describeProxy, readProxyEnv } from './client/proxyEnv.js';
import { listenError } from './daemon/listenError.js';
import { fetchIdentity } from './fingerprint/fetchIdentity.js';
import { FingerprintCache } from './fingerprint/fingerprintCache.js';
import { defaultHostNames } from './http/allowedHosts.js';
import { buildApp } from './http/buildApp.js';
import { createMetrics } from './metrics/createMetrics.js';
import { NO_EVALUATIONS } from './otel/evaluationSink.js';
import { configSecrets, keptSecrets } from './probe/configSecrets.js';
import { readKeyFile } from './probe/readKeyFile.js';
import { createScheduler } from './scheduler/createScheduler.js';
import { ProbeService } from './scheduler/probeService.js';
import { inShard, type Shard } from './scheduler/shard.js';
import { serialised } from './serialised.js';
import { VERSION } from './version.js';

export interface DaemonOptions {
  config: Config;
  /** The file the config came from; reload re-reads it. null when it came from the environment. */
  configPath: string | null;
  logger: Logger;
  env: Record<string, string | undefined>;
  /** Override config.server (CLI flags). */
  host?: string;
  port?: number;
  /** Probe only the targets of this shard (--shard-index/--shard-count). */
  shard?: Shard | null;
}

export interface Daemon {
  /** http://host:port of the HTTP API. */
  url: string;
  /** Simulator base URL when the config starts one. */
  simulatorUrl: string | null;
  /** Re-reads the config file; an invalid file keeps the running config. */
  reload(): Promise<ReloadResult>;
  close(): Promise<void>;
}

/**
 * The composition root: the only place that creates real I/O objects (undici pools, listening
 * sockets, cron tasks, files, the simulator) and wires them together; the pieces it wires are
 * in daemon/ (the target clients, the run storage, the reload, the listen errors, the start-up line).
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { logger } = options;
  // Read once, before anything is started: a proxy variable changed later applies at the next
  // start, as for curl's callers; an invalid one stops start-up.
  const proxied = readProxyEnv(options.env);
  if (!proxied.ok) throw new RangeError(`proxy settings: ${proxied.error}`);
  if (proxied.proxy) logger.info({ proxy: describeProxy(proxied.proxy) }, 'requests to targets go through a proxy');
  const shard = options.shard ?? null;
  // First, so that the targets on it follow it when its port was taken (and so does every reload).
  const sim = options.config.simulator.enabled ? await startDemoSimulator(options.config, logger) : null;
  const simulator = sim?.simulator ?? null;
  if (simulator) logger.info({ url: simulator.url }, 'simulator listening');
  const ownShard = (c: Config): Config => {
    const here = followSimulator(c, sim?.move ?? null).config;
    return shard ? { ...here, targets: here.targets.filter((t) => inShard(t.name, shard)) } : here;
  };
  let config = ownShard(options.config);
  // Redacted from what every target sends back: the secrets of the whole file, other shards'
  // targets too (they may share an origin with ours), read again after a reload.
  let loaded = options.config;
  const secrets = keptSecrets(() => configSecrets(loaded, options.env, readKeyFile), Date.now);
  if (shard) logger.info({ shard, targets: config.targets.map((t) => t.name) }, 'probing the targets of this shard only');

  const registry = new Registry();
  const metrics = createMetrics(registry, { version: VERSION, detail: config.metrics.detail });
  const shutdown = new AbortController();
  // at 0 from the start, so that rate() sees the first wrong token
  for (const method of ['bearer', 'login'] as const) {
    metrics.authFailures.inc({ method }, 0);
    metrics.authThrottled.inc({ method }, 0);
  }
  // Read at start, as metrics.detail: a reload keeps the export it started with. The SDK is
  // loaded only when asked for (it adds about 300 ms to a start without it).
  const exporting = config.otlp.logsUrl !== null || config.otlp.metricsUrl !== null;
  const evaluations = exporting
    ? (await import('./otel/createOtelExport.js')).createOtelExport(config.otlp, VERSION, {
        exported: (signal, n) => metrics.otlpExported.inc({ signal }, n),
        dropped: (signal, reason, n) => metrics.otlpDropped.inc({ signal, reason }, n),
      })
    : NO_EVALUATIONS;
  if (exporting) {
    // at 0 from the start, so that rate() sees the first drop; the URLs may carry a token: never logged
    for (const signal of ['logs', 'metrics'] as const) {
      metrics.otlpExported.inc({ signal }, 0);
      metrics.otlpDropped.inc({ signal, reason: 'export_failed' }, 0);
    }
    metrics.otlpDropped.inc({ signal: 'logs', reason: 'queue_full' }, 0);
    logger.info({ events: config.otlp.logsUrl !== null, metrics: config.otlp.metricsUrl !== null }, 'OpenTelemetry export on');
  }
  const clients = await createTargetClients(config, proxied.proxy).catch(async (err: unknown) => {
    await simulator?.close();
    throw err;
  });
  const storageDir = runStorageDir(config.storage.dir, logger);
  const { history, store } = openRunStorage(config.storage, storageDir, logger, metrics);

  const service = new ProbeService({
    config,
    probe: {
      stream: clients.stream,
      http: clients.http,
      env: options.env,
      now: Date.now,
      logger,
      newId: randomUUID,
      signal: shutdown.signal,
      readKeyFile,
      secrets: secrets.get,
      dispatcherFor: clients.dispatcherFor,
    },
    metrics,
    history,
    logger,
    evaluations,
    fingerprints: new FingerprintCache<Dispatcher>(
      (target, o) =>
        fetchIdentity(target, {
          http: clients.http,
          infoPath: o.infoPath,
          userAgent: `coherency-exporter/${VERSION}`,
          ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        }),
      Date.now,
    ),
  });
  const scheduler = createScheduler(service, metrics, logger);

  let closing: Promise<void> | null = null;
  // One reload at a time, each reading the file at its own start: two that ran side by side
  // (a SIGHUP, then a POST after a second change) could apply the older file last.
  const reload = serialised(
    createReload({
      ...options,
      metrics,
      service,
      scheduler,
      clients,
      ownShard,
      current: () => config,
      swap: (next, whole) => {
        config = next;
        loaded = whole;
        secrets.clear();
      },
      isClosing: () => closing !== null,
    }),
  );

  let ready = false;
  const host = options.host ?? config.server.host;
  const port = options.port ?? config.server.port;
  const app = buildApp({
    service,
    registry,
    history,
    logger,
    version: VERSION,
    isReady: () => ready,
    hostNames: defaultHostNames(host, hostname()),
    listenHost: host,
    metrics,
    nextRun: (target, probe) => scheduler.nextRun(target, probe),
    ...(options.configPath ? { reload } : {}),
  });
  try {
    await app.listen({ host, port });
  } catch (err) {
    await simulator?.close();
    throw listenError(err, options.host !== undefined || options.port !== undefined ? '--host/--port' : 'server', host, port);
  }
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  if (store && storageDir) indexStoredRuns(store, storageDir, logger);
  scheduler.apply(config);
  metrics.reloadSuccessful.set(1);
  metrics.reloadSuccessTimestamp.set(Date.now() / 1000);
  ready = true;
  const first = firstRuns(config, scheduler, Date.now());
  logger.info({ url, targets: config.targets.length, probes: config.probes.length, firstRuns: first }, startupLine(url, first));

  return {
    url,
    simulatorUrl: simulator?.url ?? null,
    reload,
    // Order: stop scheduling, abort streams, stop accepting requests, let runs record, close pools.
    close() {
      closing ??= (async () => {
        ready = false;
        scheduler.stop();
        shutdown.abort(new Error('shutting down'));
        await service.drain();
        await store?.flush(); // the runs aborted just now are failing runs: keep their text
        // Keep-alive clients (Prometheus, fetch) hold their sockets open for a minute after a
        // reply; close each one as soon as its last request is answered.
        const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
        try {
          await app.close();
        } finally {
          clearInterval(sweep);
        }
        await simulator?.close();
        await clients.close();
        await evaluations.close(); // bounded by otlp.timeoutSeconds: a collector that never answers cannot hold it
        logger.info('stopped');
      })();
      return closing;
    },
  };
}
