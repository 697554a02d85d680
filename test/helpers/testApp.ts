import { Registry } from 'prom-client';
import type { Config } from '../../src/config/types.js';
import { buildApp, type AppDeps } from '../../src/http/buildApp.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import type { HttpFn } from '../../src/client/httpExchange.js';
import type { StreamFn } from '../../src/probe/probeDeps.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { silentLogger } from './testConfig.js';

/** The HTTP app on a fresh registry and history, with the given stream function (and plain client, for conformance probes). */
export function testApp(config: Config, stream: StreamFn, extra: Partial<AppDeps> = {}, http?: HttpFn) {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 'test', defaultMetrics: false });
  const history = new RunHistory({ maxRuns: 50, maxBytes: 64 * 1024 * 1024 });
  let id = 0;
  const service = new ProbeService({
    config,
    probe: { stream, ...(http ? { http } : {}), env: {}, now: Date.now, logger: silentLogger, newId: () => `run-${++id}` },
    metrics,
    history,
    logger: silentLogger,
  });
  const app = buildApp({ service, registry, history, logger: silentLogger, version: 'test', isReady: () => true, metrics, ...extra });
  return { app, registry, metrics, history, service };
}
