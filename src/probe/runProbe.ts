import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { analyzeText, createStreamAnalyzer, isCertainFail } from '../core/analyzeText.js';
import type { Analysis } from '../core/analysisTypes.js';
import type { ChatRequest, StreamProgress, StreamResult, StreamTimeouts } from '../client/streamTypes.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import { VERSION } from '../version.js';
import { worstVerdict, type RunResult, type SampleErrorType, type SampleResult, type SampleVerdict } from './probeTypes.js';

export interface StreamOptions {
  timeouts: StreamTimeouts;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  onProgress?: (p: StreamProgress) => void;
}

/** The streaming client, passed in so tests and the CLI can swap it (daemon passes streamChat). */
export type StreamFn = (request: ChatRequest, options: StreamOptions) => Promise<StreamResult>;

/** Hooks for live figures (in-flight gauge, inter-token gaps); all optional. */
export interface ProbeObserver {
  sampleStarted?(target: string, probe: string): void;
  sampleFinished?(target: string, probe: string, sample: SampleResult): void;
  tokenGap?(target: string, probe: string, seconds: number): void;
}

export interface ProbeDeps {
  stream: StreamFn;
  env: Record<string, string | undefined>;
  /** Wall clock in ms since the epoch. */
  now: () => number;
  logger: Logger;
  newId: () => string;
  /** Reads an apiKeyFile at each run, so a rotated mounted secret applies without a restart. */
  readKeyFile?: (path: string) => string;
  /** The connection pool of a target with its own TLS settings (undefined: the default one). */
  dispatcherFor?: (target: TargetConfig) => Dispatcher | undefined;
  /** Aborts every in-flight sample (shutdown). */
  signal?: AbortSignal;
  observer?: ProbeObserver;
}

/** The API key of a target, from its variable or its file; null when it has none. Throws when the file cannot be read. */
export function apiKeyOf(target: TargetConfig, env: ProbeDeps['env'], readKeyFile?: ProbeDeps['readKeyFile']): string | null {
  if (target.apiKeyEnv) return env[target.apiKeyEnv] || null;
  if (target.apiKeyFile) {
    if (!readKeyFile) throw new Error('no key file reader configured');
    // Files made with `kubectl create secret --from-file` end with a newline.
    const key = readKeyFile(target.apiKeyFile).trim();
    if (!key) throw new Error('the API key file is empty');
    return key;
  }
  return null;
}

export function buildChatRequest(target: TargetConfig, probe: ProbeConfig, apiKey: string | null): ChatRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': `coherency-exporter/${VERSION}`,
    ...target.headers,
  };
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
  return {
    url: `${target.baseUrl}/chat/completions`,
    headers,
    body: {
      ...probe.extraBody,
      model: target.model,
      messages: probe.messages,
      max_tokens: probe.maxTokens,
      temperature: probe.temperature,
      stream: true,
      stream_options: { include_usage: true },
    },
  };
}

export function effectiveTimeouts(target: TargetConfig, probe: ProbeConfig): StreamTimeouts {
  return { ...target.timeouts, ...probe.timeouts };
}

/** Runs every sample of one probe against one target. Never throws: failures become `error` samples. */
export async function runProbe(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  trigger: RunResult['trigger'] = 'schedule',
): Promise<RunResult> {
  const startedMs = deps.now();
  const id = deps.newId();
  const log = deps.logger.child({ target: target.name, probe: probe.name, run: id });
  const samples: SampleResult[] = [];
  for (let index = 0; index < probe.samples; index++) {
    if (deps.signal?.aborted) break;
    deps.observer?.sampleStarted?.(target.name, probe.name);
    let sample: SampleResult;
    try {
      sample = await runSample(target, probe, deps, index);
    } catch (err) {
      // A bug in our own code must not take the scheduler down; report it as an error sample.
      log.error({ err }, 'sample crashed');
      sample = crashedSample(index, err);
    }
    deps.observer?.sampleFinished?.(target.name, probe.name, sample);
    log.info(
      {
        sample: index,
        verdict: sample.verdict,
        reasons: sample.reasons,
        outputTokens: sample.outputTokens,
        durationSeconds: round3(sample.durationSeconds),
        error: sample.error?.type,
      },
      'sample finished',
    );
    samples.push(sample);
  }
  return {
    id,
    target: target.name,
    probe: probe.name,
    verdict: samples.length ? worstVerdict(samples.map((s) => s.verdict)) : 'error',
    trigger,
    startedAt: new Date(startedMs).toISOString(),
    durationSeconds: (deps.now() - startedMs) / 1000,
    samples,
  };
}

/** Tokens between two looks at the live analysis: bounds the abort delay, keeps snapshots cheap. */
export const ABORT_CHECK_EVERY_TOKENS = 32;
/** How often a long sample logs its progress at debug level. */
export const PROGRESS_LOG_EVERY_MS = 5000;

class CollapseAbort extends Error {
  constructor() {
    super('aborted: the output had collapsed');
    this.name = 'CollapseAbort';
  }
}

async function runSample(target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps, index: number): Promise<SampleResult> {
  let apiKey: string | null;
  try {
    apiKey = apiKeyOf(target, deps.env, deps.readKeyFile);
  } catch (err) {
    // Name the problem, never the content: the message of a read error holds only the path.
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return errorSample(index, 'api_key', `cannot read the API key file of target ${target.name}: ${why}`);
  }
  const request = buildChatRequest(target, probe, apiKey);
  const dispatcher = deps.dispatcherFor?.(target);
  const log = deps.logger.child({ target: target.name, probe: probe.name, sample: index });
  // The stream is analysed as it arrives (cost per delta independent of the length so far),
  // so a collapse can end the request early and the final analysis costs nothing extra.
  const opts = { thresholds: probe.thresholds };
  const live = { content: createStreamAnalyzer(opts), reasoning: createStreamAnalyzer(opts) };
  const tokenMarks = new TokenMarks();
  const local = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, local.signal]) : local.signal;
  const startedMs = deps.now();
  let checkedAt = 0;
  let loggedAt = startedMs;
  let liveVerdict: Analysis['verdict'] = 'ok';
  let abortedAt: number | null = null;

  const result = await deps.stream(request, {
    timeouts: effectiveTimeouts(target, probe),
    signal,
    ...(dispatcher ? { dispatcher } : {}),
    onProgress: (p) => {
      if (p.reasoningDelta) live.reasoning.push(p.reasoningDelta);
      if (p.contentDelta) {
        live.content.push(p.contentDelta);
        tokenMarks.mark(live.content.length, p.tokens);
      }
      if (p.tokens - checkedAt >= ABORT_CHECK_EVERY_TOKENS) {
        checkedAt = p.tokens;
        const snaps = [live.content.snapshot(), ...(live.reasoning.length ? [live.reasoning.snapshot()] : [])];
        liveVerdict = worstVerdict(snaps.map((a) => a.verdict)) as Analysis['verdict'];
        if (probe.abortOnCollapse && abortedAt === null && snaps.some(isCertainFail)) {
          abortedAt = p.tokens;
          log.info({ tokens: p.tokens }, 'output collapsed: closing the stream early');
          local.abort(new CollapseAbort());
        }
      }
      const t = deps.now();
      if (t - loggedAt >= PROGRESS_LOG_EVERY_MS) {
        loggedAt = t;
        const seconds = (t - startedMs) / 1000;
        log.debug({ tokens: p.tokens, tokensPerSecond: Math.round(p.tokens / seconds), verdict: liveVerdict }, 'sample in progress');
      }
    },
  });
  for (const gap of result.gapsSeconds ?? []) deps.observer?.tokenGap?.(target.name, probe.name, gap);

  const aborted = abortedAt !== null;
  const final = {
    content: live.content.snapshot(),
    reasoning: result.reasoning ? live.reasoning.snapshot() : null,
  };
  // Our own abort is not a stream fault: the sample is judged on what came.
  const judged = aborted && result.error?.type === 'aborted' ? { ...result, error: null } : result;
  const sample = judgeSample(judged, probe, index, final);
  if (aborted) {
    sample.aborted = true;
    sample.tokensAtAbort = result.outputTokens;
    sample.tokensSaved = Math.max(0, probe.maxTokens - result.outputTokens);
  }
  const onset = final.content.metrics.repeatOnset;
  sample.onsetToken = onset >= 0 ? tokenMarks.tokenAt(onset) : null;
  return sample;
}

/**
 * Maps char offsets of the content to token counts, from the (chars, tokens) pairs seen
 * at each network read: exact at read boundaries, interpolated inside one read.
 */
class TokenMarks {
  private readonly chars: number[] = [0];
  private readonly tokens: number[] = [0];

  mark(chars: number, tokens: number): void {
    this.chars.push(chars);
    this.tokens.push(tokens);
  }

  tokenAt(offset: number): number {
    let lo = 0;
    let hi = this.chars.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.chars[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const c0 = this.chars[lo]!;
    const t0 = this.tokens[lo]!;
    const c1 = this.chars[lo + 1];
    const t1 = this.tokens[lo + 1];
    if (c1 === undefined || t1 === undefined || c1 === c0) return t0;
    return Math.round(t0 + ((offset - c0) / (c1 - c0)) * (t1 - t0));
  }
}

/** Turns a finished stream into a sample: analysis of each channel, then the verdict rules. Pure. */
export function judgeSample(
  result: StreamResult,
  probe: ProbeConfig,
  index: number,
  analysed?: { content: Analysis; reasoning: Analysis | null },
): SampleResult {
  const opts = { thresholds: probe.thresholds };
  const hasText = result.content.length > 0 || result.reasoning.length > 0;
  const content = analysed?.content ?? analyzeText(result.content, opts);
  const reasoning = analysed ? analysed.reasoning : result.reasoning ? analyzeText(result.reasoning, opts) : null;
  const combined = reasoning ? analyzeText(`${result.reasoning}\n\n${result.content}`, opts) : content;

  const reasons: string[] = [];
  let verdict: SampleVerdict;
  const error = result.error;
  // A non-streamed chat completion still says how the model writes; an HTML page does not.
  if (error && !(error.type === 'not_streaming' && hasText)) {
    verdict = 'error';
    reasons.push(`${error.type}: ${error.message}`);
  } else {
    if (error) reasons.push(`${error.type}: ${error.message} (the body was analysed anyway)`);
    verdict = textVerdict(result, content, reasoning, reasons);
    if (result.stopReason === 'repetition_detected') {
      verdict = 'fail';
      reasons.push('engine_repetition_stop: the server stopped the generation because it detected repetition');
    }
    if (verdict === 'ok' && result.outputTokens < probe.minTokens) {
      verdict = 'warn';
      reasons.push(
        `inconclusive: ${result.outputTokens} output tokens, fewer than minTokens ${probe.minTokens} (finish_reason ${result.finishReason ?? 'none'})`,
      );
    }
  }

  const streamingSeconds = result.ttftSeconds === null ? 0 : result.durationSeconds - result.ttftSeconds;
  return {
    index,
    verdict,
    reasons,
    findings: findingKinds(reasons),
    finishReason: result.finishReason,
    stopReason: result.stopReason,
    outputTokens: result.outputTokens,
    ttftSeconds: result.ttftSeconds,
    ttfcSeconds: result.ttfcSeconds,
    durationSeconds: result.durationSeconds,
    tokensPerSecond: streamingSeconds > 0 && result.outputTokens > 0 ? result.outputTokens / streamingSeconds : null,
    contentChars: result.content.length,
    reasoningChars: result.reasoning.length,
    chunks: result.chunks,
    maxGapSeconds: result.maxGapSeconds,
    endedCleanly: result.endedCleanly,
    aborted: false,
    tokensAtAbort: null,
    onsetToken: null,
    tokensSaved: 0,
    metrics: hasText || !error ? { content: content.metrics, reasoning: reasoning?.metrics ?? null, combined: combined.metrics } : null,
    error,
    content: result.content,
    reasoning: result.reasoning,
  };
}

function textVerdict(result: StreamResult, content: Analysis, reasoning: Analysis | null, reasons: string[]): SampleVerdict {
  // A reasoning model that spent the whole budget thinking returns no content: that says the
  // probe's maxTokens is too small, not that the model collapsed (unless the reasoning did).
  const contentBlank = result.content.trim().length === 0;
  if (contentBlank && reasoning && reasoning.verdict !== 'fail' && result.finishReason === 'length') {
    reasons.push('inconclusive: the token budget ran out during reasoning, no content was produced');
    return 'warn';
  }
  const verdicts: SampleVerdict[] = [content.verdict];
  for (const r of content.reasons) reasons.push(`content: ${r}`);
  if (reasoning) {
    verdicts.push(reasoning.verdict);
    for (const r of reasoning.reasons) reasons.push(`reasoning: ${r}`);
  }
  return worstVerdict(verdicts);
}

function crashedSample(index: number, err: unknown): SampleResult {
  return errorSample(index, 'internal', err instanceof Error ? err.message : String(err));
}

function errorSample(index: number, type: SampleErrorType, message: string): SampleResult {
  return {
    index,
    verdict: 'error',
    reasons: [`${type}: ${message}`],
    findings: [],
    finishReason: null,
    stopReason: null,
    outputTokens: 0,
    ttftSeconds: null,
    ttfcSeconds: null,
    durationSeconds: 0,
    tokensPerSecond: null,
    contentChars: 0,
    reasoningChars: 0,
    chunks: 0,
    maxGapSeconds: 0,
    endedCleanly: false,
    aborted: false,
    tokensAtAbort: null,
    onsetToken: null,
    tokensSaved: 0,
    metrics: null,
    error: { type, message },
    content: '',
    reasoning: '',
  };
}

/** Reasons read "[channel: ]kind: detail"; the kind is a bounded snake_case code. */
export function findingKinds(reasons: readonly string[]): string[] {
  const kinds = new Set<string>();
  for (const r of reasons) {
    const parts = r.split(': ');
    const kind = parts[0] === 'content' || parts[0] === 'reasoning' ? parts[1] : parts[0];
    if (kind && /^[a-z][a-z0-9_]*$/.test(kind)) kinds.add(kind);
  }
  return [...kinds];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
