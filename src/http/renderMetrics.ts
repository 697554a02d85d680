import { Registry } from 'prom-client';

/**
 * The registry as Prometheus text, one metric per turn of the event loop. prom-client's
 * registry.metrics() renders every metric in one go: with 100 target×probe pairs (~35k
 * series, 3.4 MB) that held the loop for ~150 ms at each scrape, and /-/healthy with it.
 * Here timers and sockets get a turn between two metrics. Like any scrape of a live process,
 * two metrics may be read a sample apart; each metric is read whole.
 */
export async function renderMetrics(registry: Registry): Promise<string> {
  if (registry.contentType !== Registry.PROMETHEUS_CONTENT_TYPE) return registry.metrics();
  const parts: string[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    parts.push(await registry.getSingleMetricAsString(metric.name));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return `${parts.join('\n\n')}\n`;
}
