/**
 * The validated, defaulted configuration. Produced only by loadConfig/parseConfig.
 *
 * Each section's type is derived from its declaration in configSpec.ts (specTypes.ts), so a
 * key's type is written once. Where validateConfig turns a value into something else (the
 * token resolved from the environment, a key left out made null or [], prompt made into
 * messages, the kind keys nested by kind), the changed keys are written here, each saying why.
 */
import type { ExpectConfig } from '../core/promptAdherence.js';
import type { VerdictModel } from '../core/verdictModel.js';
import type { ProbeKindSettings } from './validateProbeKind.js';
import type { ConditionalKeys, SectionValue } from './specTypes.js';

export type ChatMessage = SectionValue<'message'>;

/**
 * Request timeouts in seconds. slowSeconds is optional here although a loaded config always
 * has it: configs built by hand (tests, the one-shot CLI) may leave it out (60 then).
 */
export type Timeouts = Omit<SectionValue<'timeouts'>, 'slowSeconds'> & { slowSeconds?: number };

export interface ServerConfig extends Omit<SectionValue<'server'>, 'authToken'> {
  /**
   * Resolved by validateConfig: server.authToken, else $COHERENCY_AUTH_TOKEN; null = no auth.
   * Bearer token for /probe, /runs and /-/reload (and /metrics with metricsAuth). Never log it.
   */
  authToken: string | null;
}

export type StorageConfig = SectionValue<'storage'>;
export type SimulatorConfig = SectionValue<'simulator'>;
export type MetricsConfig = SectionValue<'metrics'>;
/** Which series the exporter keeps: basic (~100 per target x probe) or full (every figure, channel and fine bucket). */
export type MetricsDetail = MetricsConfig['detail'];

export interface TlsConfig extends Omit<SectionValue<'tls'>, 'caFile'> {
  /** PEM file of the CA(s) that signed the target's certificate; null (left out) = the system CAs. */
  caFile: string | null;
}

/** Keys validateConfig changes on the way (null or [] where left out, resolved, normalised). */
type TargetChanged = 'baseUrl' | 'apiKeyEnv' | 'apiKeyFile' | 'headers' | 'probes' | 'timeouts' | 'tls' | 'omit';

export interface TargetConfig extends Omit<SectionValue<'target'>, TargetChanged> {
  /** Without trailing slash, e.g. http://127.0.0.1:8000/v1 */
  baseUrl: string;
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
  /** Sampling fields never sent to this target (models that accept only their default). */
  omit: Array<'temperature'>;
}

/** Keys of a probe that only its kind reads: they come nested by kind (recall, contamination, conformance). */
type KindKeys = 'kind' | ConditionalKeys<'probe'>;
type ProbeChanged = 'prompt' | 'messages' | 'thresholds' | 'verdictModel' | 'timeouts' | 'extraBody' | 'expect' | 'temperatures';

export interface ProbeConfig extends Omit<SectionValue<'probe'>, ProbeChanged | KindKeys>, ProbeKindSettings {
  /** prompt as one user message, or messages as given; empty for kinds that build their own. */
  messages: ChatMessage[];
  /** Analyzer threshold overrides, keyed by the analyzer's threshold names ({} when left out). */
  thresholds: Record<string, number>;
  /** Path of a model retrained with `npm run train` (null: the committed model). */
  verdictModel: string | null;
  /** That file's model, read and checked when the config is validated (absent: the committed model). Left out of the redacted copy. */
  learnedModel?: VerdictModel;
  /** Probe-level timeout overrides (merged over the target's). */
  timeouts: Partial<Timeouts>;
  /** Extra JSON fields merged into the request body ({} when left out). */
  extraBody: Record<string, unknown>;
  /** Keywords (and headings) the answer should have; null = not checked. */
  expect: ExpectConfig | null;
  /**
   * A temperature sweep: every sample is run at each of these (samples x temperatures requests
   * per run), and the run counters, degeneration ratio and quality histograms of this probe get a
   * `temperature` label. null: no sweep, `temperature` alone.
   */
  temperatures: number[] | null;
}

export interface Config {
  server: ServerConfig;
  simulator: SimulatorConfig;
  metrics: MetricsConfig;
  storage: StorageConfig;
  targets: TargetConfig[];
  probes: ProbeConfig[];
}
