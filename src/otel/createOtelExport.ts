/**
 * The OpenTelemetry export, wired from the official SDK packages: evaluation events as log
 * records with an event name (sdk-logs, OTLP/HTTP JSON to …/v1/logs) and, when asked, the
 * client metrics (sdk-metrics, …/v1/metrics). Nothing here runs on the probe's path but
 * putting a record in a queue; the network is the timers' business, each export cut at the
 * timeout, and whatever cannot go is dropped and counted.
 */
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { OtlpConfig } from '../config/types.js';
import { createClientMetrics } from './clientMetrics.js';
import { evaluationEvents } from './evaluationEvents.js';
import { type EvaluationSink, NO_EVALUATIONS } from './evaluationSink.js';
import { type ExportCounts, QueuedLogProcessor, within } from './queuedLogProcessor.js';

const SCOPE = 'coherency-exporter';
const MAX_BATCH = 512;

export interface OtelExport extends EvaluationSink {
  /** Events waiting for export (tests and the bench). */
  readonly waiting: number;
}

/** The export the config asks for, or NO_EVALUATIONS when it names no endpoint. */
export function createOtelExport(config: OtlpConfig, version: string, counts: ExportCounts): OtelExport | typeof NO_EVALUATIONS {
  if (config.logsUrl === null && config.metricsUrl === null) return NO_EVALUATIONS;
  const resource = resourceFromAttributes({
    ...config.resourceAttributes,
    'service.name': config.serviceName,
    'service.version': version,
  });
  const timeoutMillis = Math.round(config.timeoutSeconds * 1000);
  const intervalMs = Math.max(1, Math.round(config.exportIntervalSeconds * 1000));
  const exporterOptions = { headers: { ...config.headers }, timeoutMillis, concurrencyLimit: 2 };

  let processor: QueuedLogProcessor | null = null;
  let logs: LoggerProvider | null = null;
  if (config.logsUrl !== null) {
    processor = new QueuedLogProcessor(
      new OTLPLogExporter({ ...exporterOptions, url: config.logsUrl }),
      { maxQueueSize: config.maxQueueSize, maxBatchSize: Math.min(MAX_BATCH, config.maxQueueSize), intervalMs, timeoutMs: timeoutMillis },
      counts,
    );
    logs = new LoggerProvider({ resource, processors: [processor] });
  }
  const logger = logs?.getLogger(SCOPE, version) ?? null;

  let meters: MeterProvider | null = null;
  let clientMetrics: ReturnType<typeof createClientMetrics> | null = null;
  if (config.metricsUrl !== null) {
    const exporter = countedMetricExporter(new OTLPMetricExporter({ ...exporterOptions, url: config.metricsUrl }), counts);
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: Math.max(intervalMs, timeoutMillis + 1),
      exportTimeoutMillis: timeoutMillis,
    });
    meters = new MeterProvider({ resource, readers: [reader] });
    clientMetrics = createClientMetrics(meters.getMeter(SCOPE, version));
  }

  let closing: Promise<void> | null = null;
  return {
    get waiting() {
      return processor?.waiting ?? 0;
    },
    record(run, context) {
      if (!logger || closing) return;
      // a run whose events cannot be written is the export's loss, never the probe's
      try {
        for (const event of evaluationEvents(run, context)) logger.emit(event);
      } catch {
        counts.dropped('logs', 'export_failed', 1);
      }
    },
    request(target, result) {
      if (!clientMetrics || closing) return;
      // off the caller's path: a sample with 10,000 chunks makes 10,000 observations
      const metrics = clientMetrics;
      setImmediate(() => metrics.record(target, result));
    },
    close() {
      // every part within the export timeout: a collector that never answers cannot hold a shutdown
      closing ??= within(Promise.allSettled([logs?.shutdown(), meters?.shutdown({ timeoutMillis })]), timeoutMillis * 2 + 200);
      return closing;
    },
  };
}

/** Data points of an export: what the counters count for metrics. */
function pointsOf(metrics: ResourceMetrics): number {
  let n = 0;
  for (const scope of metrics.scopeMetrics) for (const m of scope.metrics) n += m.dataPoints.length;
  return n;
}

/** The metric exporter with each export's points counted as exported or dropped (export_failed). */
function countedMetricExporter(inner: PushMetricExporter, counts: ExportCounts): PushMetricExporter {
  return {
    export(metrics, done) {
      const points = pointsOf(metrics);
      inner.export(metrics, (result) => {
        if (result.code === 0) counts.exported('metrics', points);
        else counts.dropped('metrics', 'export_failed', points);
        done(result);
      });
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    ...(inner.selectAggregationTemporality ? { selectAggregationTemporality: inner.selectAggregationTemporality.bind(inner) } : {}),
    ...(inner.selectAggregation ? { selectAggregation: inner.selectAggregation.bind(inner) } : {}),
  };
}
