import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Dispatcher } from 'undici';
import { loadConfig } from './config/loadConfig.js';
import type { Config } from './config/types.js';
import { defaultHostNames } from './http/allowedHosts.js';
import { buildApp } from './http/buildApp.js';
import { createMetrics } from './metrics/createMetrics.js';
import { forgetSeries } from './metrics/recordRun.js';
import { createScheduler, type Scheduler } from './scheduler/createScheduler.js';
import { readKeyFile } from './probe/readKeyFile.js';
import type { StreamFn } from './probe/probeDeps.js';
import type { HttpFn } from './client/httpExchange.js';
import { ProbeService, runKey } from './scheduler/probeService.js';
import { FingerprintCache } from './fingerprint/fingerprintCache.js';
import { fetchIdentity } from './fingerprint/fetchIdentity.js';
import { inShard, type Shard } from './scheduler/shard.js';
import { serialised } from './serialised.js';
import { RunHistory } from './state/runHistory.js';
import { createRunStore, shouldStore } from './state/runStore.js';
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

export type ReloadResult = { ok: true } | { ok: false; errors: string[] };

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
 * The composition root: the only place that creates real I/O objects (undici pools,
 * listening sockets, cron tasks, files, the simulator) and wires them together.
 */
/** A listen failure that start-up reports as one line naming the setting, instead of a stack trace. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

const LISTEN_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use (another exporter, or the same port twice)',
  EADDRNOTAVAIL: "the address is not one of this machine's",
  EACCES: 'permission denied (ports below 1024 need privileges)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  EAI_NONAME: 'the host name does not resolve',
  EAFNOSUPPORT: 'this machine has no network of that address family (IPv6?)',
};

function listenError(err: unknown, where: string, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const why = LISTEN_PROBLEMS[code];
  if (!why) return err;
  const key = where === 'server' || where === 'simulator' ? `${where}.host/${where}.port` : where;
  return new ListenError(`cannot listen on ${host}:${port} (${key}): ${why}`, code);
}

/** When the next run of each scheduled pair comes, as the start-up line says it: the soonest and the latest, in whole seconds from now. */
export function firstRuns(
  config: Config,
  scheduler: Pick<Scheduler, 'nextRun'>,
  nowMs: number,
): { pairs: number; fromSeconds: number; toSeconds: number } {
  const at = config.targets
    .flatMap((t) => t.probes.map((p) => scheduler.nextRun(t.name, p)))
    .filter((x): x is number => x !== null)
    .map((ms) => Math.max(0, Math.ceil((ms - nowMs) / 1000)));
  return at.length
    ? { pairs: at.length, fromSeconds: Math.min(...at), toSeconds: Math.max(...at) }
    : { pairs: 0, fromSeconds: 0, toSeconds: 0 };
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { logger } = options;
  const shard = options.shard ?? null;
  const ownShard = (c: Config): Config => (shard ? { ...c, targets: c.targets.filter((t) => inShard(t.name, shard)) } : c);
  let config = ownShard(options.config);
  if (shard) logger.info({ shard, targets: config.targets.map((t) => t.name) }, 'probing the targets of this shard only');

  const registry = new Registry();
  const metrics = createMetrics(registry, { version: VERSION, detail: config.metrics.detail });
  const shutdown = new AbortController();
  // at 0 from the start, so that rate() sees the first wrong token
  for (const method of ['bearer', 'login'] as const) {
    metrics.authFailures.inc({ method }, 0);
    metrics.authThrottled.inc({ method }, 0);
  }

  // Pools for targets with their own TLS settings. Built before they are swapped in, so a CA
  // file that vanished since validation fails the reload instead of half-applying it.
  // The HTTP client (undici, a fifth of start-up) is loaded only where a probe or a TLS setting
  // needs it, not before the server is ready.
  const makeDispatchers = async (c: Config): Promise<Map<string, Dispatcher>> => {
    const made = new Map<string, Dispatcher>();
    if (!c.targets.some((t) => t.tls.caFile || t.tls.insecureSkipVerify)) return made;
    const { createTargetDispatcher } = await import('./client/targetDispatcher.js');
    for (const t of c.targets) {
      const d = createTargetDispatcher(t.tls, t.timeouts.connectSeconds, (p) => readFileSync(p));
      if (d) made.set(t.name, d);
    }
    return made;
  };
  let dispatchers = await makeDispatchers(config);
  let client: Promise<typeof import('./client/streamChat.js')> | null = null;
  const loadClient = (): Promise<typeof import('./client/streamChat.js')> => (client ??= import('./client/streamChat.js'));
  const streamChat: StreamFn = async (request, streamOptions) => (await loadClient()).streamChat(request, streamOptions);
  let plainClient: Promise<typeof import('./client/httpExchange.js')> | null = null;
  const loadPlainClient = (): Promise<typeof import('./client/httpExchange.js')> => (plainClient ??= import('./client/httpExchange.js'));
  const httpExchange: HttpFn = async (request, httpOptions) => (await loadPlainClient()).httpExchange(request, httpOptions);

  const simulator = config.simulator.enabled
    ? await (await import('./simulator/index.js'))
        .startSimulator({ host: config.simulator.host, port: config.simulator.port, tokensPerSecond: config.simulator.tokensPerSecond })
        .catch((err: unknown) => {
          throw listenError(err, 'simulator', config.simulator.host, config.simulator.port);
        })
    : null;
  if (simulator) logger.info({ url: simulator.url }, 'simulator listening');

  const storage = config.storage;
  const store = storage.dir
    ? createRunStore({
        dir: storage.dir,
        maxRuns: storage.maxRuns,
        maxBytes: storage.maxBytes,
        logger,
        onSaveError: () => metrics.storeErrors.inc(),
        onOversized: (outcome) => metrics.storeOversized.inc({ outcome }),
      })
    : null;
  if (store) {
    for (const outcome of ['stored_without_text', 'not_stored'] as const) metrics.storeOversized.inc({ outcome }, 0);
  }
  const history = new RunHistory({ maxRuns: storage.historySize, maxBytes: storage.historyMaxBytes }, store);

  const service = new ProbeService({
    config,
    probe: {
      stream: streamChat,
      http: httpExchange,
      env: options.env,
      now: Date.now,
      logger,
      newId: randomUUID,
      signal: shutdown.signal,
      readKeyFile,
      dispatcherFor: (t) => dispatchers.get(t.name),
    },
    metrics,
    history,
    logger,
    fingerprints: new FingerprintCache<Dispatcher>(
      (target, o) =>
        fetchIdentity(target, {
          http: httpExchange,
          infoPath: o.infoPath,
          userAgent: `coherency-exporter/${VERSION}`,
          ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        }),
      Date.now,
    ),
    onRun: (run) => {
      if (store && shouldStore(run)) void store.save(run);
    },
  });
  const scheduler = createScheduler(service, metrics, logger);

  let closing: Promise<void> | null = null;
  const refuse = (errors: string[]): ReloadResult => {
    metrics.reloadSuccessful.set(0);
    logger.error({ errors }, 'config reload failed: keeping the running config');
    return { ok: false, errors };
  };
  // All or nothing: everything that can fail runs before the first change is made.
  const reloadOnce = async (): Promise<ReloadResult> => {
    if (!options.configPath) return { ok: false, errors: ['the config came from the environment, not a file: nothing to reload'] };
    if (closing) return { ok: false, errors: ['shutting down'] };
    const result = await loadConfig(options.configPath, options.env);
    if (!result.ok) return refuse(result.errors);
    const next = ownShard(result.config);
    let nextDispatchers: Map<string, Dispatcher>;
    try {
      nextDispatchers = await makeDispatchers(next);
    } catch (err) {
      return refuse([`a TLS file could not be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
    }
    if (closing) {
      for (const d of nextDispatchers.values()) void d.close();
      return { ok: false, errors: ['shutting down'] };
    }
    for (const key of ['simulator', 'storage'] as const) {
      if (JSON.stringify(next[key]) !== JSON.stringify(config[key]))
        logger.warn({ section: key }, 'this section changed; it applies after a restart');
    }
    if (next.metrics.detail !== metrics.detail) logger.warn({ running: metrics.detail }, 'metrics.detail applies after a restart');
    if (next.server.host !== config.server.host || next.server.port !== config.server.port) {
      logger.warn('server.host and server.port apply after a restart');
    }
    const before = config;
    config = next;
    const previous = dispatchers;
    dispatchers = nextDispatchers;
    for (const d of previous.values()) void d.close();
    service.setConfig(config);
    scheduler.apply(config);
    // After the swap, so a run of a removed pair that ends now records nothing new.
    const kept = new Set(next.targets.flatMap((t) => t.probes.map((p) => runKey(t.name, p))));
    // A probe whose sweep changed starts its series afresh: the series of a temperature no longer
    // swept (or the unlabelled ones of a probe that now sweeps) would otherwise stay until restart.
    const sweepOf = (c: Config, name: string) => JSON.stringify(c.probes.find((p) => p.name === name)?.temperatures ?? null);
    const resweep = new Set(before.probes.filter((p) => sweepOf(before, p.name) !== sweepOf(next, p.name)).map((p) => p.name));
    for (const t of before.targets) {
      for (const p of t.probes) {
        if (kept.has(runKey(t.name, p)) && !resweep.has(p)) continue;
        service.forget(t.name, p);
        await forgetSeries(metrics, t.name, p);
      }
    }
    // A removed target loses all its series; one that now points elsewhere starts its fingerprint afresh.
    const nextTargets = new Map(next.targets.map((t) => [t.name, t]));
    for (const t of before.targets) {
      const now = nextTargets.get(t.name);
      if (now && now.baseUrl === t.baseUrl && now.model === t.model) continue;
      service.forgetTarget(t.name);
      if (!now) await forgetSeries(metrics, t.name);
    }
    if (resweep.size > 0) service.initSeries();
    metrics.reloadSuccessful.set(1);
    metrics.reloadSuccessTimestamp.set(Date.now() / 1000);
    logger.info({ targets: config.targets.length, probes: config.probes.length }, 'config reloaded');
    return { ok: true };
  };

  // One reload at a time, each reading the file at its own start: two that ran side by side
  // (a SIGHUP, then a POST after a second change) could apply the older file last.
  const reload = serialised(reloadOnce);

  let ready = false;
  const app = buildApp({
    service,
    registry,
    history,
    logger,
    version: VERSION,
    isReady: () => ready,
    hostNames: defaultHostNames(options.host ?? config.server.host, hostname()),
    listenHost: options.host ?? config.server.host,
    metrics,
    nextRun: (target, probe) => scheduler.nextRun(target, probe),
    ...(options.configPath ? { reload } : {}),
  });

  const host = options.host ?? config.server.host;
  const port = options.port ?? config.server.port;
  try {
    await app.listen({ host, port });
  } catch (err) {
    await simulator?.close();
    throw listenError(err, options.host !== undefined || options.port !== undefined ? '--host/--port' : 'server', host, port);
  }
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  if (store) {
    // Only once listening: a second daemon that cannot bind must leave the folder it shares as
    // it found it (opening applies retention, which deletes). The head of each stored run, then
    // retention over those it read; a run's text is read on GET /runs/:id. Not awaited: the
    // index is built while the server already answers (in batches, so health checks are not
    // held); /runs and /runs/:id wait for it, saves queue behind it.
    void store.open().then(
      (runs) => logger.info({ dir: storage.dir, runs }, 'stored runs indexed'),
      (err: Error) =>
        logger.error({ dir: storage.dir, err: err.message }, 'could not index the stored runs: /runs lists the runs in memory only'),
    );
  }
  scheduler.apply(config);
  metrics.reloadSuccessful.set(1);
  metrics.reloadSuccessTimestamp.set(Date.now() / 1000);
  ready = true;
  const first = firstRuns(config, scheduler, Date.now());
  logger.info(
    { url, targets: config.targets.length, probes: config.probes.length, firstRuns: first },
    `coherency-exporter listening on ${url}; ${
      first.pairs === 0
        ? 'no probe has a schedule: runs start only from /probe or the index page'
        : `first runs of ${first.pairs} target×probe pair${first.pairs === 1 ? '' : 's'} in ${first.fromSeconds}${first.toSeconds > first.fromSeconds ? `-${first.toSeconds}` : ''} s, then on their schedules (runOnStart: false waits for the schedule)`
    }`,
  );

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
        await Promise.all([...dispatchers.values()].map((d) => d.close()));
        if (client) await (await client).closeStreamDispatchers();
        if (plainClient) await (await plainClient).closeHttpDispatchers();
        logger.info('stopped');
      })();
      return closing;
    },
  };
}
