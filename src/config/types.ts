/** The validated, defaulted configuration. Produced only by loadConfig/parseConfig. */
import type { VerdictMode } from '../core/analysisTypes.js';
import type { ExpectConfig } from '../core/promptAdherence.js';
import type { VerdictModel } from '../core/verdictModel.js';

import type { ConformanceSettings, ContaminationSettings, ProbeKind, RecallSettings } from './probeKindTypes.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Timeouts {
  connectSeconds: number;
  idleSeconds: number;
  totalSeconds: number;
  /**
   * The window of the minimum output rate: under 2 bytes of output a second over it ends the
   * request with too_slow. A loaded config always has it; absent (a config built by hand): 60.
   */
  slowSeconds?: number;
  /** The whole run of a probe; absent: totalSeconds for each sample of the run (probe/runDeadline.ts). */
  runSeconds?: number;
}

export interface ServerConfig {
  host: string;
  port: number;
  /**
   * Bearer token for /probe, /runs and /-/reload (and /metrics with metricsAuth):
   * server.authToken, else $COHERENCY_AUTH_TOKEN; null = no auth. Never log it.
   */
  authToken: string | null;
  /** When true, /metrics also requires the token. */
  metricsAuth: boolean;
  /** Manual runs (POST /probe) in flight at once across all targets; more get 429. */
  maxConcurrentManualRuns: number;
  /** Samples streaming at once across all targets and probes (scheduled and manual); more wait for a slot. */
  maxConcurrentSamples: number;
  /**
   * Host names a request's Host header may carry (against DNS rebinding); IP addresses always
   * pass; `*` turns the check off; `*.example.com` matches the names under it. null = localhost,
   * the machine's host name and the listen address.
   */
  allowedHosts: string[] | null;
  /**
   * Addresses and CIDR ranges of reverse proxies whose X-Forwarded-For, -Proto and -Host are
   * believed (the client address the login limiter counts, HTTPS for the cookie's Secure flag).
   */
  trustProxy: string[];
}

export interface StorageConfig {
  /** Where failing and erroring runs are written; null = runs are kept only in memory. */
  dir: string | null;
  /** Retention of stored runs, by count and by total bytes; the oldest go first. */
  maxRuns: number;
  maxBytes: number;
  /** Runs kept in memory for /runs. */
  historySize: number;
  /** Bytes of output text those runs may hold; the oldest runs leave memory first. */
  historyMaxBytes: number;
}

export interface SimulatorConfig {
  /** Start the built-in simulator in-process (the default config does). */
  enabled: boolean;
  host: string;
  port: number;
  tokensPerSecond: number;
}

export interface TlsConfig {
  /** PEM file of the CA(s) that signed the target's certificate; null = the system CAs. */
  caFile: string | null;
  /** Accept any certificate. For test setups only. */
  insecureSkipVerify: boolean;
}

export interface TargetConfig {
  name: string;
  /** Without trailing slash, e.g. http://127.0.0.1:8000/v1 */
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
  /**
   * Path of a file holding the key (a mounted Secret). The key is never in a Config:
   * the probe reads the file at each run, so a rotated secret applies without a reload.
   */
  apiKeyFile: string | null;
  headers: Record<string, string>;
  /** Names of the probes this target runs (every probe when absent in the file). */
  probes: string[];
  timeouts: Timeouts;
  tls: TlsConfig;
  /**
   * Where the token limit goes: OpenAI's reasoning models refuse max_tokens and want
   * max_completion_tokens. null = max_tokens, switched once the server refuses it.
   */
  maxTokensField: 'max_tokens' | 'max_completion_tokens' | null;
  /** Sampling fields never sent to this target (models that accept only their default). */
  omit: Array<'temperature'>;
  /** Other names the endpoint may give the model in its answers' `model` (conformance probes). */
  modelAliases: string[];
  /** The model reasons (true), does not (false), or is detected from its first answer (null); read by conformance probes. */
  reasoning: boolean | null;
}

export interface ProbeConfig {
  name: string;
  /** node-cron expression; null = manual only. */
  schedule: string | null;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  /**
   * A temperature sweep: every sample is run at each of these (samples x temperatures requests
   * per run), and the run counters, degeneration ratio and quality histograms of this probe get a
   * `temperature` label. null: no sweep, `temperature` alone.
   */
  temperatures: number[] | null;
  samples: number;
  minTokens: number;
  /** Analyzer threshold overrides, keyed by the analyzer's threshold names. */
  thresholds: Record<string, number>;
  /** Who decides a sample's verdict: the rules (default) or the learned model with the hard rules. */
  verdict: VerdictMode;
  /** Path of a model retrained with `npm run train` (null: the committed model). */
  verdictModel: string | null;
  /** That file's model, read and checked when the config is validated (absent: the committed model). Left out of the redacted copy. */
  learnedModel?: VerdictModel;
  /** Probe-level timeout overrides (merged over the target's). */
  timeouts: Partial<Timeouts>;
  /** Extra JSON fields merged into the request body (top_p, seed, ...). */
  extraBody: Record<string, unknown>;
  /** Close the stream as soon as the output has certainly collapsed (no need to wait for maxTokens). */
  abortOnCollapse: boolean;
  /** A scheduled probe also runs once soon after start (spread over the first minute). */
  runOnStart: boolean;
  /** Byte cap on one response; null = scaled from maxTokens (see responseByteCap). */
  maxResponseBytes: number | null;
  /** Keywords (and headings) the answer should have; null = not checked. */
  expect: ExpectConfig | null;
  /** Ask the server for per-token logprobs (logprobs: true) and use them as supporting evidence. */
  logprobs: boolean;
  /** What the probe does (absent: generation). recall and contamination build their own messages. */
  kind?: ProbeKind;
  /** Settings of a recall probe (kind recall only). */
  recall?: RecallSettings;
  /** Settings of a contamination probe (kind contamination only). */
  contamination?: ContaminationSettings;
  /** Settings of a conformance probe (kind conformance only). */
  conformance?: ConformanceSettings;
}

/** Which series the exporter keeps: basic (~100 per target x probe) or full (every figure, channel and fine bucket). */
export type MetricsDetail = 'basic' | 'full';

export interface MetricsConfig {
  /** How many recent samples coherency_degeneration_ratio looks at. */
  degenerationWindow: number;
  /** Series per target x probe: see createMetrics. Applies at start (a reload keeps the running set). */
  detail: MetricsDetail;
}

export interface Config {
  server: ServerConfig;
  simulator: SimulatorConfig;
  metrics: MetricsConfig;
  storage: StorageConfig;
  targets: TargetConfig[];
  probes: ProbeConfig[];
}
