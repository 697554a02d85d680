import { Registry } from 'prom-client';
import type { Config } from '../../src/config/types.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import type { StreamFn } from '../../src/probe/probeDeps.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { silentLogger } from './testConfig.js';

/** A ProbeService on its own metrics and history, streaming through `stream`, with random run ids and a silent logger. */
export function testService(config: Config, stream: StreamFn) {
  const metrics = createMetrics(new Registry(), { version: 't', defaultMetrics: false });
  const history = new RunHistory({ maxRuns: 100, maxBytes: 64 * 1024 * 1024 });
  const service = new ProbeService({
    config,
    probe: { stream, env: {}, now: Date.now, logger: silentLogger, newId: () => Math.random().toString(36) },
    metrics,
    history,
    logger: silentLogger,
  });
  return { service, metrics, history };
}
