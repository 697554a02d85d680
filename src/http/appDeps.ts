import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Metrics } from '../metrics/createMetrics.js';
import type { ProbeService } from '../scheduler/probeService.js';
import type { RunHistory } from '../state/runHistory.js';

/** What the HTTP app is built from; each route plugin takes the part it needs as its options. */
export interface AppDeps {
  service: ProbeService;
  registry: Registry;
  history: RunHistory;
  logger: Logger;
  version: string;
  /** True once schedules are applied and the daemon serves real figures. */
  isReady: () => boolean;
  /** When a pair's next scheduled run starts (ms since the epoch); null when none is scheduled. */
  nextRun?: (target: string, probe: string) => number | null;
  /** Re-reads the config (POST /-/reload); absent when the config did not come from a file. */
  reload?: () => Promise<{ ok: true } | { ok: false; errors: string[] }>;
  /** Host names the daemon answers to when server.allowedHosts is not set (defaultHostNames); default localhost only. */
  hostNames?: readonly string[];
  /** The address the daemon listens on: always one of its names, list or not (the healthcheck command asks it). */
  listenHost?: string;
  /** Where failed and throttled credentials are counted; absent in tests that do not look. */
  metrics?: Pick<Metrics, 'authFailures' | 'authThrottled'>;
  /** Clock of sessions and the login limiter; default Date.now. */
  now?: () => number;
}
