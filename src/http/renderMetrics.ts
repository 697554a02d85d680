import { Registry } from 'prom-client';

/**
 * Milliseconds of rendering between two turns of the event loop. prom-client's
 * registry.metrics() renders every metric in one go: with 100 target×probe pairs under
 * metrics.detail: full (~35k series, 3.4 MB) that held the loop ~150 ms. Yielding after every
 * metric instead made a scrape wait for ~70 turns of a loop busy reading 16 streams: 662 KB
 * took up to 2.8 s to answer during the 100-pair load, though rendering it takes ~10 ms once
 * warm. So the rendering yields once it has run this long: a warm scrape is answered in one
 * piece, a cold or huge one in a few, and timers and sockets still get a turn between them.
 */
export const RENDER_SLICE_MS = 10;

export interface RenderOptions {
  /** Monotonic clock in ms; default performance.now (tests pass a fake one). */
  now?: () => number;
}

/**
 * The registry as Prometheus text, in slices of RENDER_SLICE_MS. Like any scrape of a live
 * process, two metrics may be read a sample apart; each metric is read whole.
 */
export async function renderMetrics(registry: Registry, options: RenderOptions = {}): Promise<string> {
  if (registry.contentType !== Registry.PROMETHEUS_CONTENT_TYPE) return registry.metrics();
  const now = options.now ?? (() => performance.now());
  const parts: string[] = [];
  let sliceStart = now();
  for (const metric of registry.getMetricsAsArray()) {
    parts.push(await registry.getSingleMetricAsString(metric.name));
    if (now() - sliceStart >= RENDER_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = now();
    }
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * renderMetrics shared by the scrapes that arrive while it runs (two Prometheus replicas, a
 * person with curl): one rendering answers them all, so concurrent scrapes cost one.
 * A scrape that arrives after it ended gets a new one: figures are never older than the scrape.
 */
export function sharedRendering(registry: Registry, options: RenderOptions = {}): () => Promise<string> {
  let running: Promise<string> | null = null;
  return () => {
    running ??= renderMetrics(registry, options).finally(() => {
      running = null;
    });
    return running;
  };
}
