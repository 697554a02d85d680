import type { AnalysisScore, TextMetrics, Verdict } from '../core/analysisTypes.js';
import type { Finding, FindingKind } from '../core/finding.js';
import type { StreamErrorType } from '../client/streamTypes.js';
import type { Adherence } from '../core/promptAdherence.js';
import type { LogprobSummary } from '../core/logprobTrace.js';
import type { Fingerprint } from '../fingerprint/normalizeFingerprint.js';

/** Sample-level verdict: the analyzer's ok/warn/fail, or error when no usable answer came. */
export type SampleVerdict = Verdict | 'error';

/** Stream error types, plus `api_key` (the key file could not be read) and `internal` (a bug of ours caught around a sample). */
export type SampleErrorType = StreamErrorType | 'api_key' | 'internal';

export const SAMPLE_VERDICTS: readonly SampleVerdict[] = ['ok', 'warn', 'fail', 'error'];

/**
 * What each probe kind adds to a sample, by kind name: `outcome`, what its samples carry besides
 * the usual fields, and `findingKinds`, the sample-level finding kinds it adds. Empty here: each
 * module of kinds/ adds its own entry with `declare module '../probeTypes.js'` (TypeScript's
 * declaration merging), so that this file, which every kind imports, names none of them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the kind modules (declaration merging)
export interface ProbeKindSamples {}

/** The finding kinds the probe kinds add (recall_missed, contamination, ...): their modules declare them. */
export type ProbeKindFindingKind = {
  [K in keyof ProbeKindSamples]: ProbeKindSamples[K] extends { findingKinds: infer F } ? F : never;
}[keyof ProbeKindSamples];

/**
 * What a sample of a kind with an outcome carries, told apart by `kind` (the probe kind's name):
 * `{ kind: 'recall', ratio, ... } | { kind: 'contamination', ... } | ...`.
 */
export type SampleOutcome = {
  [K in keyof ProbeKindSamples]: ProbeKindSamples[K] extends { outcome: infer O } ? { kind: K } & O : never;
}[keyof ProbeKindSamples];

/** The outcome of one kind, by its name. */
export type OutcomeOf<K extends SampleOutcome['kind']> = Extract<SampleOutcome, { kind: K }>;

/** The sample's outcome when it is of that kind; undefined otherwise. */
export function outcomeOf<K extends SampleOutcome['kind']>(sample: Pick<SampleResult, 'outcome'>, kind: K): OutcomeOf<K> | undefined {
  return sample.outcome?.kind === kind ? (sample.outcome as OutcomeOf<K>) : undefined;
}

/**
 * Kinds a sample can be judged by besides the analyzer's: too short to judge, the server's own
 * repetition stop, an answer to another prompt (off_prompt), too few headings (missing_headings), an answer in
 * another language than expect.language (wrong_language),
 * and those of the probe kinds (their modules in kinds/; the whole list at run time is
 * SAMPLE_FINDING_KINDS of kinds/index.ts).
 */
export const SAMPLE_LEVEL_FINDING_KINDS = [
  'inconclusive',
  'engine_repetition_stop',
  'off_prompt',
  'missing_headings',
  'wrong_language',
] as const;

export type SampleFindingKind = FindingKind | (typeof SAMPLE_LEVEL_FINDING_KINDS)[number] | ProbeKindFindingKind;

/** A finding of one sample: an analyzer finding of one channel, or a sample-level one. */
export interface SampleFinding extends Omit<Finding, 'kind'> {
  kind: SampleFindingKind;
  /** Which text it was found in; 'sample' for sample-level findings. */
  channel: 'content' | 'reasoning' | 'sample';
}

export interface SampleMetrics {
  content: TextMetrics;
  /** null when the stream carried no reasoning. */
  reasoning: TextMetrics | null;
  combined: TextMetrics;
}

export interface SampleResult {
  index: number;
  verdict: SampleVerdict;
  /** One line per finding or error, for people ("content: sentence_loop: ..."). Derived, never parsed. */
  reasons: string[];
  /** What was found, with where (char and token offsets) and an excerpt; empty when ok. */
  findings: SampleFinding[];
  /** How the request differed from the probe's, and why ("temperature 0.6 refused: ..."). */
  notes: string[];
  finishReason: string | null;
  stopReason: string | number | null;
  outputTokens: number;
  /** Seconds to the first content or reasoning token. */
  ttftSeconds: number | null;
  /** Seconds to the first content token (later than ttft for reasoning models). */
  ttfcSeconds: number | null;
  durationSeconds: number;
  tokensPerSecond: number | null;
  contentChars: number;
  reasoningChars: number;
  chunks: number;
  maxGapSeconds: number;
  endedCleanly: boolean;
  /** True when the daemon closed the stream itself because the output had already collapsed. */
  aborted: boolean;
  /** Output tokens received when the stream was aborted (null when not aborted). */
  tokensAtAbort: number | null;
  /** maxTokens minus the tokens received, for aborted samples; 0 otherwise. */
  tokensSaved: number;
  /** Output token at which the longest loop of the content starts (null when none). */
  onsetToken: number | null;
  /** null when the stream ended in error before anything could be analysed. */
  metrics: SampleMetrics | null;
  error: { type: SampleErrorType; message: string } | null;
  /** The probe's temperature for this sample (for a sweep, its value of temperatures); a note says when it was not sent. Absent on samples made before sweeps existed. */
  temperature?: number;
  /** false when the request carried no temperature (the target omits it, or the server refused it): the server's default applied. Absent when sent. */
  temperatureSent?: false;
  /** Keyword coverage and headings of the answer, for probes with `expect` (null otherwise). */
  adherence?: Adherence | null;
  /** Per-token logprob figures, for probes with `logprobs: true` whose server sent them (null otherwise). */
  logprobs?: LogprobSummary | null;
  /** The learned model's score of each channel's finished text (the verdict's why in 'learned' mode). Absent on older runs. */
  score?: { content: AnalysisScore | null; reasoning: AnalysisScore | null } | null;
  /** Full output text; kept for run history, never sent in /metrics. */
  content: string;
  reasoning: string;
  /**
   * What a kind other than generation found, told apart by `kind`: recall (how many planted facts
   * the answer gave back, and which were missed where), contamination (this request's code word
   * and whose code words its answer held), conformance (each check with its verdict, reason and
   * evidence). Runs stored by earlier builds kept these as fields of their own (`recall`,
   * `contamination`, `conformance`): the store converts them on reading (state/storedRunShape.ts).
   */
  outcome?: SampleOutcome;
}

export interface RunResult {
  id: string;
  target: string;
  probe: string;
  /** Worst sample verdict: error > fail > warn > ok. */
  verdict: SampleVerdict;
  /** 'schedule' or 'manual'. */
  trigger: 'schedule' | 'manual';
  startedAt: string;
  durationSeconds: number;
  samples: SampleResult[];
  /** What the target said about itself at this run (known fields kept when a read failed); absent on runs before fingerprints, and without reads. */
  fingerprint?: Fingerprint;
}

const SEVERITY: Record<SampleVerdict, number> = { ok: 0, warn: 1, fail: 2, error: 3 };

export function worstVerdict(verdicts: readonly SampleVerdict[]): SampleVerdict {
  let worst: SampleVerdict = 'ok';
  for (const v of verdicts) if (SEVERITY[v] > SEVERITY[worst]) worst = v;
  return worst;
}
