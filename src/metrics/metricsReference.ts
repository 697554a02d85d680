import { Registry } from 'prom-client';
import { FINDING_KINDS } from '../core/finding.js';
import { CHECK_REASON_MEANINGS } from '../probe/conformance/reasonMeanings.js';
import { PROBE_KIND_FINDING_KINDS } from '../probe/kinds/index.js';
import type { MetricsDetail } from '../config/types.js';
import type { SampleErrorType } from '../probe/probeTypes.js';
import { createMetrics } from './createMetrics.js';

/** What every error type of `coherency_probe_errors_total{type}` means (the type makes the compiler ask for each). */
export const ERROR_TYPE_MEANINGS: Readonly<Record<SampleErrorType, string>> = {
  connect: 'no connection (refused, DNS, TLS, reset before an answer)',
  timeout_connect: 'no connection within timeouts.connectSeconds',
  http_status: 'an HTTP status other than 200 (401/403 = auth, 429 = rate limited, named in the reason)',
  timeout_idle:
    'no output token for timeouts.idleSeconds while streaming (SSE comments, keep-alives and a trickle of bytes are no progress)',
  timeout_total: 'the sample ran past timeouts.totalSeconds',
  timeout_run:
    'the run passed its deadline (timeouts.runSeconds, by default totalSeconds for each sample of the run): what came before is kept',
  too_slow: 'output came slower than 2 bytes a second for a whole timeouts.slowSeconds (a trickle, not a generation)',
  truncated: 'the stream ended without finish_reason or [DONE]',
  malformed: 'an event that is not JSON, or not a chat-completion chunk; a body in an encoding that cannot be decoded',
  server_error_event: 'the server sent an error event inside the stream',
  not_streaming: 'the answer was not a stream (and held no text to judge)',
  too_large: 'the response passed its byte cap (maxResponseBytes)',
  aborted: 'the daemon stopped the sample (shutdown or reload); never alerts',
  api_key: 'the key file could not be read, or the key cannot go into a header',
  internal: "a bug in the exporter's own code, reported instead of crashing the scheduler",
};

/** What to check first for each error type: one line an operator can act on (the type makes the compiler ask for each). */
export const ERROR_TYPE_CHECKS: Readonly<Record<SampleErrorType, string>> = {
  connect:
    "is the server up and listening at the target's baseUrl (host, port, http vs https)? from the exporter's network (container, pod), not your laptop's",
  timeout_connect: 'a firewall or NetworkPolicy dropping packets, a wrong host that does not answer, or a server too busy to accept',
  http_status:
    'the reason names status and URL: 404 wants baseUrl ending in /v1; 401/403 says which key was sent (apiKeyEnv, apiKeyFile); 429 the schedules or the quota; 5xx the server log',
  timeout_idle:
    'the server stalled mid-answer (overload, a stuck request): its log and load; or raise timeouts.idleSeconds for a slow first token',
  timeout_total: 'a maxTokens the server cannot stream within timeouts.totalSeconds: lower maxTokens or raise totalSeconds',
  timeout_run:
    "a server that answers every request of the run slowly (the run's checks and their durations), or a runSeconds set below what the run needs",
  too_slow:
    'a server (or proxy) trickling output a character at a time: its load and log; a healthy server streams several tokens a second',
  truncated:
    "a proxy or load balancer cutting long streams (its read timeout), or the server restarting: the server's and the proxy's logs",
  malformed: "a proxy rewriting the stream, or a server that is not OpenAI-compatible: the run's reason quotes the bad event",
  server_error_event: "the server's log: the reason quotes its error (context length, out of memory, a bad request field)",
  not_streaming: 'a server or gateway that ignores stream: true (or an HTML error page): the URL, and whether a proxy answers instead',
  too_large: 'a server that ignores max_tokens and streams on: raise maxResponseBytes only if the text is fine, else check the server',
  aborted: 'nothing: the daemon stopped the sample itself (shutdown or reload)',
  api_key: "the key file's path and permissions, or a key with a newline or non-ASCII characters in it",
  internal: 'report it with the run (GET /runs/ID): a bug in coherency-exporter',
};

interface Described {
  name: string;
  help: string;
  type: string;
  labelNames: string[];
  upperBounds?: number[];
}

function described(detail: MetricsDetail): Described[] {
  const registry = new Registry();
  createMetrics(registry, { version: 'x', defaultMetrics: false, detail });
  return registry.getMetricsAsArray() as unknown as Described[];
}

/** What metrics.detail: basic keeps of a metric of the full set. */
function basicNote(full: Described, basic: Described | undefined): string {
  if (!basic) return 'full only';
  const notes: string[] = [];
  if (full.labelNames.includes('channel')) notes.push(full.type === 'histogram' ? 'content channel' : 'content and reasoning');
  if (full.upperBounds && basic.upperBounds?.join() !== full.upperBounds.join()) notes.push('coarser buckets');
  return notes.join(', ') || 'yes';
}

/**
 * docs/metrics.md, generated from the metric definitions themselves (names, types, labels,
 * HELP), so the reference cannot drift: `npm run docs` writes it, a test compares it.
 */
export function metricsReference(): string {
  const full = described('full');
  const basic = new Map(described('basic').map((m) => [m.name, m]));
  const rows = full.map((m) => {
    const labels = m.labelNames.map((l) => `\`${l}\``).join(', ') || '—';
    return `| \`${m.name}\` | ${m.type} | ${labels} | ${basicNote(m, basic.get(m.name))} | ${m.help.replace(/\|/g, '\\|')} |`;
  });
  const buckets = full
    .filter((m) => m.upperBounds)
    .map((m) => {
      const b = basic.get(m.name)?.upperBounds;
      return `| \`${m.name}\` | ${b ? b.join(', ') : '—'} | ${m.upperBounds!.join(', ')} |`;
    });
  return `<!-- Generated by \`npm run docs\` from src/metrics/createMetrics.ts; test/docs.test.ts keeps it equal. Do not edit by hand. -->
# Metrics reference

Every metric is on the exporter's own registry (never prom-client's global one), with the
Node.js process metrics (\`process_*\`, \`nodejs_*\`) alongside. Units are base units
(seconds, bytes, characters); ratios are 0-1 unless the text says otherwise, and each HELP
text says which way is worse.

Labels are bounded: \`target\` and \`probe\` come from the config, \`channel\` is \`content\`,
\`reasoning\` or \`combined\`, \`verdict\` is \`ok|warn|fail|error\`, \`type\` is an error type and
\`kind\` a finding kind (both fixed sets, below). An error type or finding kind gets a series
the first time it happens; the four verdicts exist from the start at 0.
\`period\` is \`before\` or \`after\` (the before/after gauges such as \`coherency_change_failed_ratio\`, which exist per
target and probe once its target's fingerprint changed). The fingerprint's own strings (server,
version, model revision, the served model) are labels of \`coherency_target_info\` only, beside
the configured model: one series per target, replaced when they change; never a hash or a
version elsewhere.

An errored sample moves only \`coherency_probe_samples_total{verdict="error"}\`,
\`coherency_probe_errors_total\` and \`coherency_probe_duration_seconds\`: no quality histogram,
no last-output gauge, no tokens/s.

## Basic and full

\`metrics.detail: basic\` (the default) keeps about 100 series per target and probe; \`full\`
keeps every metric below. The *basic* column says what basic keeps of each. The \`channel\`
label: \`content\` always; \`reasoning\` only while the last sample had reasoning text;
\`combined\` (reasoning and answer as one text) only under full and only with reasoning text.

| metric | type | labels | basic | meaning |
|---|---|---|---|---|
${rows.join('\n')}

## Histogram buckets

Upper bounds (\`le\`) under each detail. Basic's are coarse: a probe gives tens of samples an
hour, so finer steps would add series that never fill; full keeps vLLM's own latency buckets,
so the client's view lines up with the server's histograms.

| histogram | basic | full |
|---|---|---|
${buckets.join('\n')}

## Error types

\`coherency_probe_errors_total{type}\`:

| type | meaning | what to check |
|---|---|---|
${Object.entries(ERROR_TYPE_MEANINGS)
  .map(([t, m]) => `| \`${t}\` | ${m} | ${ERROR_TYPE_CHECKS[t as SampleErrorType]} |`)
  .join('\n')}

## Finding kinds

\`coherency_degeneration_reasons_total{kind}\`: ${FINDING_KINDS.map((k) => `\`${k}\``).join(', ')}, and the
sample-level \`engine_repetition_stop\` (vLLM stopped the generation with
\`stop_reason: "repetition_detected"\`). An inconclusive sample (too few tokens, or the budget
spent reasoning) is a warn in \`coherency_probe_samples_total\` and has no kind here.
Recall, contamination, conformance and golden probes add ${PROBE_KIND_FINDING_KINDS.map((k) => `\`${k}\``).join(', ')}
(facts missed; another request's code word in an answer; an answer without its own code word; a
conformance check failed, which one and why in the conformance series below; a golden task
answered wrongly, a warn: the share right is \`coherency_golden_answers_total\`).
Generation probes with \`expect\` add \`off_prompt\` (too few of the expected keywords: the answer is
to another prompt), \`wrong_language\` (the answer is mostly in another language than
\`expect.language\`) and \`missing_headings\` (fewer markdown headings than asked, a warning).

## Conformance reasons

The \`reason\` of \`coherency_conformance_check_failures_total\` and
\`coherency_conformance_check_failure_info\` (and of each check in \`/runs/ID\` and \`probe --json\`),
a fixed set; [conformance.md](conformance.md) says what each check sends and reads:

| reason | meaning |
|---|---|
${Object.entries(CHECK_REASON_MEANINGS)
  .map(([r, m]) => `| \`${r}\` | ${m} |`)
  .join('\n')}
`;
}
