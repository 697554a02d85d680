import { Counter, Gauge, Histogram, type Registry, collectDefaultMetrics } from 'prom-client';
import type { TextMetrics } from '../core/analysisTypes.js';
import type { MetricsDetail } from '../config/types.js';
import {
  BASIC_COMPRESSION_RATIO_BUCKETS,
  BASIC_E2E_BUCKETS_SECONDS,
  BASIC_LATENCY_BUCKETS_SECONDS,
  BASIC_OUTPUT_TOKEN_BUCKETS,
  BASIC_TOKENS_PER_SECOND_BUCKETS,
  CHAR_SPAN_BUCKETS,
  E2E_BUCKETS_SECONDS,
  INTER_TOKEN_BUCKETS_SECONDS,
  OUTPUT_TOKEN_BUCKETS,
  RATIO_BUCKETS,
  RUN_LENGTH_BUCKETS,
  TOKENS_PER_SECOND_BUCKETS,
  TTFT_BUCKETS_SECONDS,
} from './buckets.js';
import { createConformanceMetrics } from './conformanceMetrics.js';
import { createKindMetrics } from './kindMetrics.js';
import { createChangeMetrics } from './changeMetrics.js';

const TP = ['target', 'probe'] as const;
const TPC = ['target', 'probe', 'channel'] as const;
/**
 * `temperature` is declared on the series a temperature sweep splits (run counters, the
 * degeneration ratio, quality histograms, the logprob gauges) but set only on samples of probes
 * that sweep: prom-client fixes a metric's label names at creation, yet writes only the labels a
 * series was given, so a probe without a sweep keeps exactly its series of before (PromQL reads a
 * missing label as empty), and one family serves both: no second set of metrics, no query written
 * twice, and `sum without (temperature)` adds a sweep up. Values are bounded by the configured list.
 */
const TPT = ['target', 'probe', 'temperature'] as const;
const TPCT = ['target', 'probe', 'channel', 'temperature'] as const;

/**
 * The analyzer figures exported per sample and channel: a histogram
 * `coherency_output_<name>` and a gauge `coherency_last_output_<name>` with the last value.
 */
export interface DegenerationMetricSpec {
  name: string;
  help: string;
  /** null: only the last-value gauge (keeps the series count down for secondary figures). */
  buckets: number[] | null;
  /**
   * What `metrics.detail: basic` keeps of the figure: 'gauge' the last-value gauge only, an array
   * a histogram with these (coarse) buckets as well, null nothing (the figure is full only).
   */
  basic: 'gauge' | readonly number[] | null;
  /** null when the figure does not apply to this text (e.g. no collapse, no onset). */
  value: (m: TextMetrics) => number | null;
}

const num = (v: number | string | undefined): number => (typeof v === 'number' ? v : Number(v ?? 0));

export const DEGENERATION_METRICS: readonly DegenerationMetricSpec[] = [
  {
    name: 'compression_ratio',
    help: 'gzip (level 6) size / UTF-8 size of the output. LOWER means MORE repetitive; healthy prose sits around 0.3-0.45, loops fall toward 0.01; above 1 only for outputs under ~50 bytes, where the 18-byte gzip frame outweighs the text.',
    buckets: RATIO_BUCKETS,
    basic: BASIC_COMPRESSION_RATIO_BUCKETS,
    value: (m) => m.compressionRatio,
  },
  {
    name: 'longest_word_run',
    help: 'Longest run of one word repeated back to back in the output ("the the the" = 3). HIGHER means MORE repetitive.',
    buckets: RUN_LENGTH_BUCKETS,
    basic: 'gauge',
    value: (m) => m.longestWordRun,
  },
  {
    name: 'top_line_repeats',
    help: 'Occurrences of the most repeated non-blank line of the output. Code and HTML repeat lines naturally; compare with the verdict.',
    buckets: RUN_LENGTH_BUCKETS,
    basic: 'gauge',
    value: (m) => m.topLineRepeats,
  },
  {
    name: 'unique_word_ratio',
    help: 'Distinct words / words in the output, 0-1. LOWER means MORE repetitive.',
    buckets: RATIO_BUCKETS,
    basic: 'gauge',
    value: (m) => m.uniqueWordRatio,
  },
  {
    name: 'repeat_coverage_ratio',
    help: 'Share of output characters inside back-to-back repeated blocks, 0-1. HIGHER means MORE repetitive; a collapse drives it towards 1.',
    buckets: RATIO_BUCKETS,
    basic: 'gauge',
    value: (m) => m.repeatCoverage,
  },
  {
    name: 'longest_repeat_characters',
    help: 'Characters spanned by the longest back-to-back repeated block of the output (unit length x copies). 0 when none.',
    buckets: CHAR_SPAN_BUCKETS,
    basic: 'gauge',
    value: (m) => m.repeatPeriod * m.repeatCount,
  },
  {
    name: 'collapse_onset_ratio',
    help: 'Where the collapse starts, as a share of the output (0 = from the first character, 0.9 = in the last tenth). Only for failed samples with a located onset.',
    buckets: [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1],
    basic: 'gauge',
    value: (m) => {
      const onset = num(m['collapseOnset']);
      return onset >= 0 && m.chars > 0 ? onset / m.chars : null;
    },
  },
  {
    name: 'malformed_word_ratio',
    help: 'Highest share of the letters of a stretch of prose in words no language writes (scripts glued, words run together, punctuation glued between words), 0-1. HIGHER reads less like any language.',
    buckets: null,
    basic: null,
    value: (m) => num(m['malformedShare']),
  },
  {
    name: 'duplicate_10gram_char_ratio',
    help: 'Share of characters inside word 10-grams that occur more than once (Gopher-style), 0-1. HIGHER means MORE repetitive.',
    buckets: null,
    basic: null,
    value: (m) => num(m['dup10gramCharFraction']),
  },
  {
    name: 'top_2gram_char_ratio',
    help: 'Share of characters taken by the most frequent word 2-gram (Gopher-style), 0-1. HIGHER means MORE repetitive.',
    buckets: null,
    basic: null,
    value: (m) => num(m['top2gramCharFraction']),
  },
  {
    name: 'whitespace_ratio',
    help: 'Share of whitespace characters in the output, 0-1. Near 1 means the output turned into blanks and newlines.',
    buckets: null,
    basic: null,
    value: (m) => num(m['whitespaceShare']),
  },
  {
    name: 'punctuation_ratio',
    help: 'Share of punctuation characters in the output, 0-1. HIGH values come with floods such as "!!!!" or tag spam.',
    buckets: null,
    basic: null,
    value: (m) => num(m['punctuationShare']),
  },
  {
    name: 'foreign_script_letters',
    help: "Letters of the longest run of prose in another script than the output's own. HIGHER is a longer switch of language mid-answer.",
    buckets: null,
    basic: null,
    value: (m) => num(m['scriptSwitchLetters']),
  },
];

export type Metrics = ReturnType<typeof createMetrics>;

/** Where the scheduler puts every gap between two tokens (prom-client's Histogram is one). */
export interface GapObserver {
  labels(labels: { target: string; probe: string }): { observe(value: number): void };
}

/** Takes the gaps and keeps nothing: coherency_inter_token_latency_seconds under metrics.detail: basic. */
const DISCARD_GAPS: GapObserver = { labels: () => ({ observe: () => {} }) };

export interface CreateMetricsOptions {
  version: string;
  defaultMetrics?: boolean;
  /** metrics.detail; basic when absent. */
  detail?: MetricsDetail;
}

/**
 * Every metric of the exporter, registered on the given registry (never the global one).
 *
 * `detail: 'basic'` (the default) is a budget of about 100 series per target x probe, so that a
 * hundred endpoints cost Prometheus ~10k series rather than ~35k. What a target x probe keeps,
 * and why:
 * - every counter and gauge the alert rules and the dashboard's overview read (verdicts, errors
 *   and finding kinds, which only grow a series for a type or kind that happened; the run gauges;
 *   the degeneration ratio);
 * - five histograms with coarse buckets (buckets.ts): duration, time to first token, tokens/s,
 *   largest gap per sample and output tokens, the latency view of an endpoint;
 * - the quality figures the dashboard draws, as last-value gauges of the content channel, and of
 *   the reasoning channel only while the model streams reasoning; a histogram only for the
 *   compression ratio (content), the headline figure whose quantiles the dashboard shows.
 * What it leaves to `detail: 'full'`: the `combined` channel (reasoning + answer, which says
 * little the two channels do not), quality histograms of every figure and channel, the secondary
 * figures (n-gram and character shares, windowed compression, script switches: each sample's page
 * under /runs/:id shows them all), time to first content token, and one observation per
 * inter-token gap. Full keeps the fine bucket sets (vLLM's own for latency).
 */
export function createMetrics(registry: Registry, options: CreateMetricsOptions) {
  const detail: MetricsDetail = options.detail ?? 'basic';
  const full = detail === 'full';
  if (options.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry });
    // prom-client exports these gauges with a _total suffix, which promtool (rightly) rejects;
    // the same figures remain by type as nodejs_active_handles, _requests and _resources.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      registry.removeSingleMetric(name);
    }
  }
  const reg = [registry];

  const buildInfo = new Gauge({
    name: 'coherency_build_info',
    help: 'Always 1; labels carry the exporter version and the Node.js version.',
    labelNames: ['version', 'nodejs_version'] as const,
    registers: reg,
  });
  buildInfo.set({ version: options.version, nodejs_version: process.versions.node }, 1);

  return {
    registry,
    detail,
    samples: new Counter({
      name: 'coherency_probe_samples_total',
      help: 'Probe samples completed, by verdict: ok, warn (suspicious or inconclusive), fail (degenerate output) or error (no usable answer). One increment per sample (a run has probes[].samples of them).',
      labelNames: ['target', 'probe', 'verdict', 'temperature'] as const,
      registers: reg,
    }),
    // The old name of samples, which counts samples, not runs: kept one release so that rules
    // and dashboards can move over (CHANGELOG, Deprecated).
    runs: new Counter({
      name: 'coherency_probe_runs_total',
      help: 'deprecated: use coherency_probe_samples_total; removed in 0.3.0. The same samples by verdict under its old name (it counts samples, not runs).',
      labelNames: ['target', 'probe', 'verdict', 'temperature'] as const,
      registers: reg,
    }),
    errors: new Counter({
      name: 'coherency_probe_errors_total',
      help: 'Probe samples that ended in error, by type (connect, http_status, timeout_idle, timeout_total, timeout_run, too_slow, truncated, malformed, server_error_event, not_streaming, too_large, aborted, ...).',
      labelNames: ['target', 'probe', 'type'] as const,
      registers: reg,
    }),
    reasons: new Counter({
      name: 'coherency_degeneration_reasons_total',
      help: 'Findings on warn or fail samples, by kind: a loop (word_loop ... paragraph_loop), a flood (char_flood, punctuation_flood, whitespace_flood, tag_spam), cycling, list_runaway, word_salad, gibberish, special_tokens, script_switch, language_switch, empty, learned (the learned model, probes with verdict: learned), off_prompt (expect.keywords missed), wrong_language (not in expect.language), recall_missed, contamination, ... (a fixed set). A sample counts once per kind it shows; an inconclusive sample (too short to judge) counts in samples_total as warn, not here.',
      labelNames: ['target', 'probe', 'kind'] as const,
      registers: reg,
    }),
    tokensSaved: new Counter({
      name: 'coherency_tokens_saved_total',
      help: 'Output tokens not generated because the daemon closed a collapsed stream early (maxTokens minus tokens received, summed over aborted samples).',
      labelNames: TP,
      registers: reg,
    }),
    aborted: new Counter({
      name: 'coherency_probe_aborted_samples_total',
      help: 'Samples whose stream the daemon closed early because the output had certainly collapsed (abortOnCollapse). Each is also counted as fail.',
      labelNames: TP,
      registers: reg,
    }),
    success: new Gauge({
      name: 'coherency_probe_success',
      help: '1 when every sample of the last run of this probe was ok, 0 otherwise (any warn, fail or error).',
      labelNames: TP,
      registers: reg,
    }),
    consecutiveUnsuccessful: new Gauge({
      name: 'coherency_probe_consecutive_unsuccessful_runs',
      help: 'Runs in a row of this probe that were not successful (any warn, fail or error sample); 0 after a successful run.',
      labelNames: TP,
      registers: reg,
    }),
    runsSinceFail: new Gauge({
      name: 'coherency_probe_runs_since_last_fail',
      help: 'Runs of this probe since the last one with a failed (degenerate) sample: 0 when the last run had one, 2 after two runs without. Runs whose samples all errored do not count; counted from the exporter start when no run failed since; absent until a run with an analysed sample.',
      labelNames: TP,
      registers: reg,
    }),
    lastRun: new Gauge({
      name: 'coherency_probe_last_run_timestamp_seconds',
      help: 'Unix time at which the last run of this probe finished.',
      labelNames: TP,
      registers: reg,
    }),
    scheduleInterval: new Gauge({
      name: 'coherency_probe_schedule_interval_seconds',
      help: 'Seconds between two scheduled runs of this probe (from its cron schedule); absent for manual-only probes. Alert when the last run is older than a few intervals.',
      labelNames: TP,
      registers: reg,
    }),
    degenerationRatio: new Gauge({
      name: 'coherency_degeneration_ratio',
      help: 'Share of failed samples among the most recent samples of this probe (window set by metrics.degenerationWindow; per temperature for probes that sweep), 0-1. HIGHER is worse; errors are not counted as failed.',
      labelNames: TPT,
      registers: reg,
    }),
    reloadSuccessful: new Gauge({
      name: 'coherency_config_last_reload_successful',
      help: '1 when the last config load (start, SIGHUP or POST /-/reload) succeeded, 0 when the file was invalid and the previous config stayed.',
      registers: reg,
    }),
    reloadSuccessTimestamp: new Gauge({
      name: 'coherency_config_last_reload_success_timestamp_seconds',
      help: 'Unix time of the last successful config load.',
      registers: reg,
    }),
    storeErrors: new Counter({
      name: 'coherency_run_store_errors_total',
      help: 'Failing or erroring runs that could not be written to storage.dir (read-only, full, removed and not re-creatable): each one is kept in memory only and lost at restart. Alert when it grows.',
      registers: reg,
    }),
    authFailures: new Counter({
      name: 'coherency_auth_failures_total',
      help: 'Requests with a wrong server.authToken, by method: bearer (an Authorization header) or login (the login form). A few are typos; a steady rate is someone guessing (each client address gets 10 a minute, then 429).',
      labelNames: ['method'] as const,
      registers: reg,
    }),
    authThrottled: new Counter({
      name: 'coherency_auth_throttled_total',
      help: 'Requests answered 429 because their client address had used up its wrong tokens for the minute, by method: bearer or login.',
      labelNames: ['method'] as const,
      registers: reg,
    }),
    storeOversized: new Counter({
      name: 'coherency_run_store_oversized_total',
      help: 'Runs larger than storage.maxBytes on their own, by outcome: stored_without_text (the head with its figures and findings, a note instead of the text), not_stored (too large even so). Retention never deletes other runs to make room for them. Raise storage.maxBytes or lower maxTokens when it grows.',
      labelNames: ['outcome'] as const,
      registers: reg,
    }),
    otlpExported: new Counter({
      name: 'coherency_otlp_exported_records_total',
      help: 'Records the OpenTelemetry export (otlp) sent and the collector accepted, by signal: logs (evaluation events) or metrics (data points of the client metrics). Only while otlp has an endpoint.',
      labelNames: ['signal'] as const,
      registers: reg,
    }),
    otlpDropped: new Counter({
      name: 'coherency_otlp_dropped_records_total',
      help: 'Records the OpenTelemetry export (otlp) dropped, by signal (logs, metrics) and reason: queue_full (otlp.maxQueueSize events were already waiting), export_failed (the collector refused, failed or passed otlp.timeoutSeconds). Probes never wait for the collector; alert when it grows.',
      labelNames: ['signal', 'reason'] as const,
      registers: reg,
    }),
    promptCoverage: new Gauge({
      name: 'coherency_last_prompt_keyword_coverage_ratio',
      help: "Share of the probe's expect.keywords the last analysed sample's answer mentions (stemmed, case-insensitive), 0-1. LOWER is worse: under expect.minCoverage the sample fails off_prompt (it answered another prompt). Only probes with expect.keywords.",
      labelNames: TPT,
      registers: reg,
    }),
    tailLogprobMean: new Gauge({
      name: 'coherency_last_output_tail_logprob_mean',
      help: 'Mean per-token logprob of the last 256 output tokens of the last sample (natural log, <= 0). Near 0 means the model is certain of every token (a loop locks in there); very low values (under -4) mean it is guessing. Only probes with logprobs: true whose server sends logprobs.',
      labelNames: TPT,
      registers: reg,
    }),
    tailNearCertain: new Gauge({
      name: 'coherency_last_output_tail_near_certain_ratio',
      help: 'Share of the last 256 output tokens of the last sample with logprob > -0.01 (p > 0.99), 0-1. HIGHER means more locked in: a collapsed loop sits near 1, healthy prose well below. Only probes with logprobs: true whose server sends logprobs.',
      labelNames: TPT,
      registers: reg,
    }),
    inFlight: new Gauge({
      name: 'coherency_probe_samples_in_flight',
      help: 'Samples currently streaming.',
      registers: reg,
    }),
    skipped: new Counter({
      name: 'coherency_probe_skipped_total',
      help: 'Scheduled runs not started, by reason: overlap (the previous run of the pair was still streaming), missed_tick (the event loop reached the cron tick more than 1 s late), concurrency_limit (the previous run was still waiting for a slot of server.maxConcurrentSamples), reload (a reload changed the schedule of the pair while its start waited for its offset).',
      labelNames: ['target', 'probe', 'reason'] as const,
      registers: reg,
    }),
    duration: new Histogram({
      name: 'coherency_probe_duration_seconds',
      help: 'Seconds from sending the request to the end of the stream, per sample.',
      labelNames: TP,
      buckets: full ? E2E_BUCKETS_SECONDS : BASIC_E2E_BUCKETS_SECONDS,
      registers: reg,
    }),
    ttft: new Histogram({
      name: 'coherency_time_to_first_token_seconds',
      help: 'Seconds from sending the request to the first content or reasoning token, per sample.',
      labelNames: TP,
      buckets: full ? TTFT_BUCKETS_SECONDS : BASIC_LATENCY_BUCKETS_SECONDS,
      registers: reg,
    }),
    /** null under metrics.detail: basic. */
    ttfc: full
      ? new Histogram({
          name: 'coherency_time_to_first_content_token_seconds',
          help: 'Seconds from sending the request to the first content token, per sample; later than the first token when a reasoning model thinks first.',
          labelNames: TP,
          buckets: TTFT_BUCKETS_SECONDS,
          registers: reg,
        })
      : null,
    interTokenLatency: full
      ? (new Histogram({
          name: 'coherency_inter_token_latency_seconds',
          help: 'Seconds between two consecutive token-carrying chunks of a stream; one observation per gap.',
          labelNames: TP,
          buckets: INTER_TOKEN_BUCKETS_SECONDS,
          registers: reg,
        }) as GapObserver)
      : DISCARD_GAPS,
    largestInterTokenGap: new Histogram({
      name: 'coherency_largest_inter_token_gap_seconds',
      help: 'The longest gap between two consecutive token-carrying chunks of a sample (a stall), one observation per sample; 0 when the answer came in one chunk.',
      labelNames: TP,
      buckets: full ? INTER_TOKEN_BUCKETS_SECONDS : BASIC_LATENCY_BUCKETS_SECONDS,
      registers: reg,
    }),
    outputTokens: new Histogram({
      name: 'coherency_output_tokens',
      help: 'Output tokens per sample (usage.completion_tokens, or counted deltas when the server sent no usage).',
      labelNames: TP,
      buckets: full ? OUTPUT_TOKEN_BUCKETS : BASIC_OUTPUT_TOKEN_BUCKETS,
      registers: reg,
    }),
    tokensPerSecond: new Histogram({
      name: 'coherency_output_tokens_per_second',
      help: 'Output tokens per second of streaming, measured from the first token to the end of the sample.',
      labelNames: TP,
      buckets: full ? TOKENS_PER_SECOND_BUCKETS : BASIC_TOKENS_PER_SECOND_BUCKETS,
      registers: reg,
    }),
    // recall and contamination probes (kindMetrics.ts), conformance probes (conformanceMetrics.ts)
    ...createKindMetrics(reg),
    ...createConformanceMetrics(reg),
    // target fingerprints and the before/after comparison of a change (changeMetrics.ts)
    ...createChangeMetrics(reg),
    // Last, so the table of core metrics reads first in /metrics and README.
    // Under basic, only the figures with a `basic` entry, and their histograms observe the content
    // channel only (recordSample).
    degeneration: DEGENERATION_METRICS.filter((spec) => full || spec.basic !== null).map((spec) => {
      const buckets = full ? spec.buckets : Array.isArray(spec.basic) ? [...(spec.basic as readonly number[])] : null;
      return {
        spec,
        histogram: buckets
          ? new Histogram({
              name: `coherency_output_${spec.name}`,
              help: `${spec.help} One observation per sample and channel${Array.isArray(spec.basic) ? ' (the content channel only under metrics.detail: basic)' : ''}.`,
              labelNames: TPCT,
              buckets,
              registers: reg,
            })
          : null,
        last: new Gauge({
          name: `coherency_last_output_${spec.name}`,
          help: `Last sample's value. ${spec.help}`,
          labelNames: TPC,
          registers: reg,
        }),
      };
    }),
  };
}
