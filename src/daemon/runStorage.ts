import type { Logger } from 'pino';
import type { StorageConfig } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { RunHistory } from '../state/runHistory.js';
import { createRunStore, type RunStore } from '../state/runStore.js';

/** The run history, backed by a store on disk when storage.dir is set (the history decides which runs it saves). */
export function openRunStorage(storage: StorageConfig, logger: Logger, metrics: Metrics): { history: RunHistory; store: RunStore | null } {
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
