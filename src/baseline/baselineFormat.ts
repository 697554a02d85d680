import type { SampleVerdict } from '../probe/probeTypes.js';

/**
 * The file `probe --save-baseline` writes and `probe --baseline` reads (docs/baselines.md).
 * A change of its shape raises BASELINE_FORMAT_VERSION: a file of another version is refused,
 * never half read.
 */
export const BASELINE_FORMAT = 'coherency-baseline';
export const BASELINE_FORMAT_VERSION = 1;

/** Tokens kept of one output at temperature 0: ~100 KB of JSON, past any probe's departure point worth reading. */
export const MAX_OUTPUT_TOKENS = 20_000;

/**
 * What a target says about itself. A flat record of short strings (null: not read): a
 * comparison lists the fields that differ. `model` is the configured name and `origin` the
 * base URL without credentials or query (runFingerprint); the rest is the target's fingerprint
 * read after the run (src/fingerprint, flattened by fingerprintFields: `server`, `version`,
 * `answeredModel`, `modelRevision`, `systemFingerprint`, `maxModelLen`, `ownedBy`,
 * `settings.NAME`, `headers.NAME`, `hash`, `unavailable`). Every field is optional and compared
 * by name; a baseline without one (an earlier build) is still read.
 */
export type Fingerprint = Record<string, string | null>;

/** The settings of a probe that decide what it sends and how it judges: a baseline of other settings is another probe. */
export interface ProbeSettings {
  kind: string;
  maxTokens: number;
  temperature: number;
  /** A sweep's temperatures, comma-separated; null without one. */
  temperatures: string | null;
  samples: number;
  minTokens: number;
  /** The request's seed (extraBody.seed); null when it sends none. */
  seed: number | null;
  /** Short sha256 digests of what is too long (or too private) to keep: messages, extra body, thresholds, kind settings. */
  messages: string;
  extraBody: string;
  thresholds: string;
  kindSettings: string;
}

/** One sample's output at temperature 0 with a seed, split into tokens (outputTokens.ts). */
export interface SampleOutput {
  sample: number;
  temperature: number;
  seed: number;
  /** The first MAX_OUTPUT_TOKENS tokens of the content. */
  tokens: string[];
  /** Tokens of the whole content (more than `tokens` holds when truncated). */
  totalTokens: number;
  truncated: boolean;
}

/**
 * How far the outputs of an unchanged build agree with themselves: the same requests at
 * temperature 0 with the seed, sent `repeats` times when the baseline was saved (--repeat).
 * Servers batch and reorder their arithmetic, so greedy outputs of one build often part late;
 * a later run that departs no earlier than this has shown no change.
 */
export interface SelfDeparture {
  /** Runs of the same requests, the first included. */
  repeats: number;
  /** The earliest token (as firstDeparture counts) where a repeat departed from the first run's output; null: never. */
  tokenIndex: number | null;
}

/** Median latency figures of a pair's answered samples; null where no sample gave one. */
export interface LatencyFigures {
  ttftSeconds: number | null;
  /** Mean time between output tokens after the first: (duration - TTFT) / (tokens - 1). */
  itlSeconds: number | null;
  tokensPerSecond: number | null;
}

/** The figures of one target × probe run. */
export interface PairFigures {
  target: string;
  probe: string;
  settings: ProbeSettings;
  /** Each sample's verdict, by sample index. */
  verdicts: SampleVerdict[];
  /** The earliest collapse onset (output token) of a failed sample; null when none failed with one. */
  onsetToken: number | null;
  /** Recall probes: the mean share of facts recalled; null for other kinds. */
  recall: number | null;
  /** Conformance probes: each check's status (pass, fail, skipped); null for other kinds. */
  conformance: Record<string, string> | null;
  latency: LatencyFigures;
  outputs: SampleOutput[];
  /** Absent: not measured (one run, no outputs at temperature 0, or a baseline of an earlier build); a departure is then judged as a change. */
  selfDeparture?: SelfDeparture;
}

export interface Baseline {
  format: typeof BASELINE_FORMAT;
  formatVersion: number;
  tool: { name: string; version: string };
  createdAt: string;
  /** By target name. */
  fingerprints: Record<string, Fingerprint>;
  pairs: PairFigures[];
}
