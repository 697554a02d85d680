import { type AnalyzeOptions, analyzeText, createStreamAnalyzer, type StreamAnalyzer } from '../core/analyzeText.js';
import { reasoningFinishReason } from '../core/analyzeChannels.js';
import type { Analysis } from '../core/analysisTypes.js';
import { TokenMarks } from '../core/tokenMarks.js';
import type { ChatRequest } from '../client/streamTypes.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import {
  adaptToRefusal,
  apiKeyOf,
  apiPath,
  buildChatRequest,
  currentShape,
  effectiveTimeouts,
  type RequestShape,
} from './buildChatRequest.js';
import { errorSample, finishEvidence, judgeSample, verdictOptions } from './judgeSample.js';
import { httpErrorHint } from './httpErrorHint.js';
import { placeTokens } from './placeTokens.js';
import { worstVerdict, type SampleResult } from './probeTypes.js';
import { responseByteCap } from './responseByteCap.js';
import type { ProbeDeps } from './probeDeps.js';

/**
 * One streamed request of a probe, analysed as it arrives, with the live check that closes a
 * collapsed stream, judged into a sample: what the generation, recall and contamination kinds
 * (kinds/) send each of their samples through.
 */

/** Chars (about 32 tokens) between two looks at the live analysis: bounds the abort delay, keeps snapshots cheap. */
export const ABORT_CHECK_EVERY_CHARS = 128;
/**
 * A look costs 0.1-0.5 ms on a long text (the tail-loop search spans the last 8 KB). A model
 * streams 20-2,000 tokens/s, 128 chars every 10 ms or more, so these bounds change nothing
 * there. A faster stream (a simulator, a cache replay, a burst of buffered text) is looked at
 * no sooner than 2 ms after the last look and no sooner than 9 times the last look's own cost
 * after it (looks take at most a tenth of the time), and at least every ABORT_CHECK_MAX_CHARS.
 */
export const ABORT_CHECK_MIN_INTERVAL_MS = 2;
/** Last look's cost x this = the least time to the next one: looks take at most 1/(1+9) of the time. */
export const ABORT_CHECK_COST_FACTOR = 9;
/** ...but never more than this, so that a busy machine (slow looks) delays an abort by ~20 tokens of a 2,000 tokens/s stream at most. */
export const ABORT_CHECK_MAX_INTERVAL_MS = 10;
/** Chars after which a look is taken however little time has passed: bounds the abort delay of a flood (~2,000 tokens). */
export const ABORT_CHECK_MAX_CHARS = 8192;
/** How often a long sample logs its progress at debug level. */
export const PROGRESS_LOG_EVERY_MS = 5000;

class CollapseAbort extends Error {
  constructor() {
    super('aborted: the output had collapsed');
    this.name = 'CollapseAbort';
  }
}

/** One request of a probe and its judged sample; the recall and contamination kinds call it with the messages they built. */
export async function runSample(target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps, index: number): Promise<SampleResult> {
  let apiKey: string | null;
  try {
    apiKey = await apiKeyOf(target, deps.env, deps.readKeyFile);
  } catch (err) {
    // apiKeyOf's messages name the problem, never the key.
    return errorSample(index, 'api_key', (err as Error).message);
  }
  const others = (await deps.secrets?.()) ?? [];
  let shape: RequestShape = currentShape(target, deps.shapes?.get(target.name));
  const notes: string[] = [];
  const dispatcher = deps.dispatcherFor?.(target);
  const log = deps.logger.child({ target: target.name, probe: probe.name, sample: index });
  // The stream is analysed as it arrives (cost per delta independent of the length so far),
  // so a collapse can end the request early and the final analysis costs nothing extra.
  const opts = { ...verdictOptions(probe), thresholds: probe.thresholds };
  const live = { content: createStreamAnalyzer(opts), reasoning: createStreamAnalyzer(opts) };
  const tokenMarks = new TokenMarks();
  const local = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, local.signal]) : local.signal;
  const startedMs = deps.now();
  let checkedAt = 0;
  let checkedAtMs = 0;
  let checkCostMs = 0;
  let loggedAt = startedMs;
  let abortedAt: number | null = null;
  // the live check runs to abort collapsed streams, or for a progress view that shows what it sees
  const watching = probe.abortOnCollapse || deps.observer?.sampleLive !== undefined;
  let liveState = '';

  const send = (request: ChatRequest) =>
    deps.stream(request, {
      timeouts: effectiveTimeouts(target, probe),
      maxBytes: responseByteCap(probe),
      signal,
      sample: index,
      ...(others.length > 0 ? { secrets: others } : {}),
      ...(dispatcher ? { dispatcher } : {}),
      onProgress: (p) => {
        if (p.reasoningDelta) live.reasoning.push(p.reasoningDelta);
        if (p.contentDelta) {
          live.content.push(p.contentDelta);
          tokenMarks.mark(live.content.length, p.tokens);
        }
        // Paced by the text received, not by the server's token count, which may be absent,
        // stale or nonsense mid-stream.
        const seen = live.content.length + live.reasoning.length;
        // Only the detectors that can be certain are computed here: a full snapshot (gzip,
        // n-grams) every 32 tokens would cost more than the stream itself.
        const unseen = seen - checkedAt;
        if (
          watching &&
          abortedAt === null &&
          unseen >= ABORT_CHECK_EVERY_CHARS &&
          (unseen >= ABORT_CHECK_MAX_CHARS ||
            performance.now() - checkedAtMs >=
              Math.max(ABORT_CHECK_MIN_INTERVAL_MS, Math.min(ABORT_CHECK_MAX_INTERVAL_MS, ABORT_CHECK_COST_FACTOR * checkCostMs)))
        ) {
          checkedAt = seen;
          const lookStart = performance.now();
          const inContent = live.content.liveCheck();
          const inReasoning = live.reasoning.length ? live.reasoning.liveCheck() : null;
          checkedAtMs = performance.now();
          checkCostMs = checkedAtMs - lookStart;
          const certain = probe.abortOnCollapse ? (inContent.certain ?? inReasoning?.certain ?? null) : null;
          if (deps.observer?.sampleLive) {
            const f = inContent.certain ?? inReasoning?.certain ?? inContent.suspected ?? inReasoning?.suspected ?? null;
            const channel = f === inContent.certain || f === inContent.suspected ? 'content' : 'reasoning';
            const atToken = f && channel === 'content' && f.atChar >= 0 ? tokenMarks.tokenAt(f.atChar) : null;
            const state = !f ? null : !f.certain ? 'suspected' : probe.abortOnCollapse ? 'aborted' : 'certain';
            const key = f ? `${state} ${f.kind} ${channel} ${atToken}` : '';
            if (f && state && key !== liveState)
              deps.observer.sampleLive(target.name, probe.name, { state, kind: f.kind, channel, atToken, sample: index });
            liveState = key;
          }
          if (certain) {
            abortedAt = p.tokens;
            log.info({ tokens: p.tokens, kind: certain.kind, atChar: certain.atChar }, 'output collapsed: closing the stream early');
            local.abort(new CollapseAbort());
          }
        }
        const t = deps.now();
        // a full snapshot (gzip, n-grams) only when someone reads the debug line
        if (t - loggedAt >= PROGRESS_LOG_EVERY_MS && log.isLevelEnabled('debug')) {
          loggedAt = t;
          const seconds = (t - startedMs) / 1000;
          const snaps = [
            live.content.snapshot({ partial: true }),
            ...(live.reasoning.length ? [live.reasoning.snapshot({ partial: true })] : []),
          ];
          const verdict = worstVerdict(snaps.map((a) => a.verdict));
          log.debug({ tokens: p.tokens, tokensPerSecond: Math.round(p.tokens / seconds), verdict }, 'sample in progress');
        }
      },
    });
  let result = await send(buildChatRequest(target, probe, apiKey, shape));
  // A server that refuses a field by name (OpenAI's reasoning models: max_tokens, a
  // temperature other than 1) gets the sample again in the shape it asks for, once per field;
  // the shape is kept for the target's later runs and the sample says what changed.
  for (let tries = 0; tries < 2 && result.error?.type === 'http_status' && result.outputTokens === 0; tries++) {
    const adapted = adaptToRefusal(result.error.message, shape, target, probe);
    if (!adapted) break;
    shape = adapted.shape;
    notes.push(adapted.note);
    // logged once per target and field: the shape is kept, so the next runs send it right away
    log.info({ note: adapted.note }, 'the server refused a request field: adapting the request');
    deps.shapes?.set(target.name, shape);
    result = await send(buildChatRequest(target, probe, apiKey, shape));
  }
  if (result.error?.type === 'http_status' && result.httpStatus !== null) {
    const hint = httpErrorHint(result.httpStatus, `${target.baseUrl}${apiPath(target)}`, target, apiKey !== null);
    if (hint) result = { ...result, error: { ...result.error, message: `${result.error.message}${hint}` } };
  }
  if (shape.omitTemperature && !notes.some((n) => n.startsWith('temperature'))) {
    notes.push(
      `temperature ${probe.temperature} not sent (${target.omit.includes('temperature') ? 'the target omits it' : 'the server refused it earlier'}): sampled at the server's default`,
    );
  }
  if (result.unknownContentParts) {
    const n = result.unknownContentParts;
    notes.push(
      `${n} content part${n === 1 ? '' : 's'} of a type other than text or thinking ${n === 1 ? 'was' : 'were'} not read (neither content nor reasoning)`,
    );
  }
  if (result.gapsSeconds?.length) deps.observer?.tokenGaps?.(target.name, probe.name, result.gapsSeconds);

  const aborted = abortedAt !== null;
  // Stream evidence for the final analysis: an output cut by the token limit while looping is a collapse at any size.
  const finishReason = finishEvidence(result, probe);
  const final = {
    // Token indexes of the content come from the server's counts at each read (tokenMarks), in one place.
    content: placeTokens(finalAnalysis(live.content, result.content, { ...opts, finishReason }), (c) => tokenMarks.tokenAt(c)),
    reasoning: result.reasoning
      ? finalAnalysis(live.reasoning, result.reasoning, {
          ...opts,
          finishReason: reasoningFinishReason(finishReason, result.content.length),
        })
      : null,
  };
  // Our own abort is not a stream fault: the sample is judged on what came.
  const judged = aborted && result.error?.type === 'aborted' ? { ...result, error: null } : result;
  return judgeSample(judged, probe, index, final, {
    notes,
    temperatureOmitted: shape.omitTemperature,
    abortedAtTokens: aborted ? result.outputTokens : null,
  });
}

/**
 * The analysis of exactly the received text. Text that never passed through onProgress
 * (a non-streamed JSON answer, an event flushed at the end of the stream) is fed now; the
 * live analyzer has seen a prefix of the text, since deltas are appended in order.
 */
function finalAnalysis(live: StreamAnalyzer, text: string, opts: AnalyzeOptions & { finishReason: string | null }): Analysis {
  if (live.length < text.length) live.push(text.slice(live.length));
  return live.length === text.length ? live.snapshot({ finishReason: opts.finishReason }) : analyzeText(text, opts);
}
