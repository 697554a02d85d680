/** The validated, defaulted configuration. Produced only by loadConfig/parseConfig. */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Timeouts {
  connectSeconds: number;
  idleSeconds: number;
  totalSeconds: number;
}

export interface ServerConfig {
  host: string;
  port: number;
}

export interface SimulatorConfig {
  /** Start the built-in simulator in-process (the default config does). */
  enabled: boolean;
  host: string;
  port: number;
  tokensPerSecond: number;
}

export interface TargetConfig {
  name: string;
  /** Without trailing slash, e.g. http://127.0.0.1:8000/v1 */
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
  headers: Record<string, string>;
  /** Names of the probes this target runs (every probe when absent in the file). */
  probes: string[];
  timeouts: Timeouts;
}

export interface ProbeConfig {
  name: string;
  /** node-cron expression; null = manual only. */
  schedule: string | null;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  samples: number;
  minTokens: number;
  /** Analyzer threshold overrides, keyed by the analyzer's threshold names. */
  thresholds: Record<string, number>;
  /** Probe-level timeout overrides (merged over the target's). */
  timeouts: Partial<Timeouts>;
  /** Extra JSON fields merged into the request body (top_p, seed, ...). */
  extraBody: Record<string, unknown>;
}

export interface MetricsConfig {
  /** How many recent samples coherency_degeneration_ratio looks at. */
  degenerationWindow: number;
}

export interface Config {
  server: ServerConfig;
  simulator: SimulatorConfig;
  metrics: MetricsConfig;
  targets: TargetConfig[];
  probes: ProbeConfig[];
}
