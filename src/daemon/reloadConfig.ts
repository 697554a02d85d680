import type { Logger } from 'pino';
import { loadConfig } from '../config/loadConfig.js';
import type { Config } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { forgetSeries } from '../metrics/recordRun.js';
import type { Scheduler } from '../scheduler/createScheduler.js';
import { type ProbeService, runKey } from '../scheduler/probeService.js';
import type { TargetClients } from './targetClients.js';

export type ReloadResult = { ok: true } | { ok: false; errors: string[] };

export interface ReloadDeps {
  /** The file the config came from; null when it came from the environment (nothing to reload). */
  configPath: string | null;
  env: Record<string, string | undefined>;
  logger: Logger;
  metrics: Metrics;
  service: ProbeService;
  scheduler: Scheduler;
  clients: TargetClients;
  /** The part of a config this daemon probes (its shard). */
  ownShard(config: Config): Config;
  /** The running config, and its replacement (`loaded`: the whole file, every shard's targets, for the secrets to redact). */
  current(): Config;
  swap(next: Config, loaded: Config): void;
  isClosing(): boolean;
}

/**
 * One reload of the config file, all or nothing: everything that can fail (reading, validating,
 * building the TLS pools) runs before the first change is made, then the new config is swapped
 * in and what it removed is forgotten with its series.
 */
export function createReload(deps: ReloadDeps): () => Promise<ReloadResult> {
  const { logger, metrics, service } = deps;
  const refuse = (errors: string[]): ReloadResult => {
    metrics.reloadSuccessful.set(0);
    logger.error({ errors }, 'config reload failed: keeping the running config');
    return { ok: false, errors };
  };
  return async () => {
    if (!deps.configPath) return { ok: false, errors: ['the config came from the environment, not a file: nothing to reload'] };
    if (deps.isClosing()) return { ok: false, errors: ['shutting down'] };
    const result = await loadConfig(deps.configPath, deps.env);
    if (!result.ok) return refuse(result.errors);
    const next = deps.ownShard(result.config);
    let pools: Awaited<ReturnType<TargetClients['prepare']>>;
    try {
      pools = await deps.clients.prepare(next);
    } catch (err) {
      return refuse([`a TLS file could not be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
    }
    if (deps.isClosing()) {
      for (const d of pools.values()) void d.close();
      return { ok: false, errors: ['shutting down'] };
    }
    const before = deps.current();
    warnRestartOnly(before, next, metrics.detail, logger);
    deps.swap(next, result.config);
    deps.clients.swap(pools);
    service.setConfig(next);
    deps.scheduler.apply(next);
    // After the swap, so a run of a removed pair that ends now records nothing new.
    await forgetRemoved(before, next, service, metrics);
    metrics.reloadSuccessful.set(1);
    metrics.reloadSuccessTimestamp.set(Date.now() / 1000);
    logger.info({ targets: next.targets.length, probes: next.probes.length }, 'config reloaded');
    return { ok: true };
  };
}

/** Sections a reload reads but that apply only after a restart: each change is logged. */
function warnRestartOnly(before: Config, next: Config, runningDetail: string, logger: Logger): void {
  for (const key of ['simulator', 'storage'] as const) {
    if (JSON.stringify(next[key]) !== JSON.stringify(before[key]))
      logger.warn({ section: key }, 'this section changed; it applies after a restart');
  }
  if (next.metrics.detail !== runningDetail) logger.warn({ running: runningDetail }, 'metrics.detail applies after a restart');
  if (next.server.host !== before.server.host || next.server.port !== before.server.port) {
    logger.warn('server.host and server.port apply after a restart');
  }
}

/**
 * Forgets, with their series, the pairs the new config no longer has, the targets it removed,
 * and the fingerprints of targets it points elsewhere.
 */
async function forgetRemoved(before: Config, next: Config, service: ProbeService, metrics: Metrics): Promise<void> {
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
  // A removed target loses all its series; one that now points elsewhere starts its fingerprint
  // afresh, and so does one whose fingerprint reads were turned on or off: what its reads said
  // would otherwise stay on its info series unread, and their first answers look like no change.
  const nextTargets = new Map(next.targets.map((t) => [t.name, t]));
  for (const t of before.targets) {
    const now = nextTargets.get(t.name);
    if (now && now.baseUrl === t.baseUrl && now.model === t.model && now.fingerprintReads === t.fingerprintReads) continue;
    service.forgetTarget(t.name);
    if (!now) await forgetSeries(metrics, t.name);
  }
  if (resweep.size > 0) service.initSeries();
}
