/**
 * `task` made one-at-a-time and coalescing: a call while a run is in progress queues exactly one
 * more run, started when the current one ends; every call made meanwhile gets that queued run's
 * result. So the last call always sees a run that started after it (for reload: one that reads
 * the config file as it is after the last change), and a storm of calls costs two runs, not one
 * per call. A run that throws rejects its callers only; the queue goes on.
 */
export function serialised<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const run = task().finally(() => {
      running = null;
    });
    running = run;
    return run;
  };
  return () => {
    if (queued) return queued;
    if (!running) return start();
    const after = running.then(
      () => undefined,
      () => undefined,
    );
    queued = after.then(() => {
      queued = null;
      return start();
    });
    return queued;
  };
}
