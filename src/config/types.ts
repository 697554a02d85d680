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
import type { OtlpConfig } from './otlpConfig.js';

export type { OtlpConfig } from './otlpConfig.js';

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

export type TlsConfig = SectionValue<'tls'>;

export interface TargetConfig extends Omit<SectionValue<'target'>, 'probes' | 'timeouts'> {
  /** Names of the probes this target runs: every probe where the file leaves it out (known only from the whole document). */
  probes: string[];
  /** Every timeout set; slowSeconds optional only for configs built by hand (see Timeouts). */
  timeouts: Timeouts;
}

/** Keys of a probe that only its kind reads: they come nested by kind (recall, contamination, conformance). */
type KindKeys = 'kind' | ConditionalKeys<'probe'>;
type ProbeChanged = 'prompt' | 'messages' | 'expect';

export interface ProbeConfig extends Omit<SectionValue<'probe'>, ProbeChanged | KindKeys>, ProbeKindSettings {
  /** prompt as one user message, or messages as given; empty for kinds that build their own. */
  messages: ChatMessage[];
  /** That file's model, read and checked when the config is validated (absent: the committed model). Left out of the redacted copy. */
  learnedModel?: VerdictModel;
  /** Keywords (and headings) the answer should have; null = not checked. */
  expect: ExpectConfig | null;
}

export interface Config {
  server: ServerConfig;
  simulator: SimulatorConfig;
  metrics: MetricsConfig;
  storage: StorageConfig;
  /** Resolved by validateConfig (otlpConfig.ts): the variables read, the signals' URLs made. */
  otlp: OtlpConfig;
  targets: TargetConfig[];
  probes: ProbeConfig[];
}
