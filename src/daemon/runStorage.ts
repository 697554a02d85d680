import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { checkWritableDir, type DirCheck } from '../config/checkWritableDir.js';
import { DEFAULTS } from '../config/defaults.js';
import type { StorageConfig } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { RunHistory } from '../state/runHistory.js';
import { createRunStore, type RunStore } from '../state/runStore.js';

/**
 * Where runs are kept: storage.dir made absolute, or null for memory only. A directory the
 * config or $COHERENCY_STORAGE_DIR names was checked when the config was read (one that cannot
 * hold files refused start-up); the default one was not, since nobody asked for it: where it
 * cannot be made (a read-only working directory) the daemon says so and keeps runs in memory,
 * rather than refusing to start over a directory the user never chose.
 */
export function runStorageDir(dir: string | null, logger: Logger, checkDir: DirCheck = checkWritableDir): string | null {
  if (dir === null) return null;
  if (dir === DEFAULTS.storage.dir) {
    const problem = checkDir(dir);
    if (problem) {
      logger.warn(
        { dir: resolve(dir) },
        `the default run storage "${dir}" ${problem}: failing runs are kept in memory only and lost at restart; set storage.dir (or ${DEFAULTS.storageDirEnv}) to a writable directory, or storage.dir: null to say so`,
      );
      return null;
    }
  }
  return resolve(dir);
}

/** The run history, backed by a store on disk when `dir` is set (the history decides which runs it saves). */
export function openRunStorage(
  storage: StorageConfig,
  dir: string | null,
  logger: Logger,
  metrics: Metrics,
): { history: RunHistory; store: RunStore | null } {
  const store = dir
    ? createRunStore({
        dir,
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
  return { history: new RunHistory({ maxRuns: storage.historySize, maxBytes: storage.historyMaxBytes }, store), store };
}

/**
 * Indexes the stored runs, once the server listens: a second daemon that cannot bind must leave
 * the folder it shares as it found it (opening applies retention, which deletes). The head of
 * each stored run, then retention over those it read; a run's text is read on GET /runs/:id.
 * Not awaited: the index is built while the server already answers (in batches, so health
 * checks are not held); /runs and /runs/:id wait for it, saves queue behind it.
 */
export function indexStoredRuns(store: RunStore, dir: string, logger: Logger): void {
  void store.open().then(
    (runs) => logger.info({ dir, runs }, 'stored runs indexed'),
    (err: Error) => logger.error({ dir, err: err.message }, 'could not index the stored runs: /runs lists the runs in memory only'),
  );
}
