import { analyzeChannels } from '../core/analyzeChannels.js';
import { type AnalyzeOptions, analyzeText } from '../core/analyzeText.js';
import type { Analysis } from '../core/analysisTypes.js';
import type { Finding } from '../core/finding.js';
import { adherenceFindings, measureAdherence } from '../core/promptAdherence.js';
import { logprobEscalation } from '../core/logprobTrace.js';
import { REPEAT_KINDS } from '../core/verdictRules.js';
import type { StreamResult } from '../client/streamTypes.js';
import type { ProbeConfig } from '../config/types.js';
import { worstVerdict, type SampleErrorType, type SampleFinding, type SampleResult, type SampleVerdict } from './probeTypes.js';

/**
 * The finish reason the analyzer is given as evidence: the stream's own, or 'length' when
 * the server sent none but the output reached maxTokens.
 */
export function finishEvidence(
  result: Pick<StreamResult, 'finishReason' | 'outputTokens'>,
  probe: Pick<ProbeConfig, 'maxTokens'>,
): string | null {
  return result.finishReason ?? (result.outputTokens >= probe.maxTokens ? 'length' : null);
}

/**
 * The verdict mode and model a probe's texts are judged with (the rules and the committed model
 * by default), with the model's score asked for: the run page shows it beside the verdict.
 */
export function verdictOptions(
  probe: Pick<ProbeConfig, 'verdict' | 'learnedModel' | 'expect'>,
): Pick<AnalyzeOptions, 'verdict' | 'verdictModel' | 'score' | 'expectLanguage'> {
  const language = probe.expect?.language;
  return {
    verdict: probe.verdict ?? 'rules',
    score: true,
    ...(probe.learnedModel ? { verdictModel: probe.learnedModel } : {}),
    // a switch into the language asked for is the answer asked for (a translation after a line in English)
    ...(language ? { expectLanguage: language } : {}),
  };
}

/** What the request of a sample adds to its stream: how it was sent, and whether we closed it. */
export interface SampleRequestFacts {
  /** How the request differed from the probe's, and why. */
  notes: readonly string[];
  /** The request carried no temperature (the target omits it, or the server refused it). */
  temperatureOmitted: boolean;
  /** Output tokens when the daemon closed the stream itself on a certain collapse; null: not closed. */
  abortedAtTokens: number | null;
}

const NOT_ADAPTED: SampleRequestFacts = { notes: [], temperatureOmitted: false, abortedAtTokens: null };

/**
 * Turns a finished stream into a sample, assembled once here: the analysis of each channel, the
 * verdict rules, then what the request adds (its notes, the temperature sent, our own early
 * close). Pure.
 */
export function judgeSample(
  result: StreamResult,
  probe: ProbeConfig,
  index: number,
  analysed?: { content: Analysis; reasoning: Analysis | null },
  request: SampleRequestFacts = NOT_ADAPTED,
): SampleResult {
  const opts = { ...verdictOptions(probe), thresholds: probe.thresholds, finishReason: finishEvidence(result, probe) };
  const hasText = result.content.length > 0 || result.reasoning.length > 0;
  // Each channel apart (a model may reason in English and answer in German); the reasoning was
  // cut by the limit only when no content followed it.
  const { content, reasoning } = analysed ?? analyzeChannels(result, opts);
  // the combined text gives metrics only: under the rules its score would change none of them, so it is not computed
  const combined = reasoning
    ? analyzeText(`${result.reasoning}\n\n${result.content}`, opts.verdict === 'learned' ? opts : { ...opts, score: false })
    : content;

  const reasons: string[] = [];
  const findings: SampleFinding[] = [];
  const sampleFinding = (f: Finding | SampleFinding, channel: SampleFinding['channel']): void => {
    findings.push({ ...f, channel });
    const line = `${f.kind}: ${f.detail}`;
    reasons.push(channel === 'sample' ? line : `${channel}: ${line}`);
  };
  let verdict: SampleVerdict;
  const error = result.error;
  const logprobs = result.logprobs ?? null;
  const adherence = probe.expect ? measureAdherence(result.content, probe.expect) : null;
  // An answer to another prompt or in another language fails; one whose text already failed (a
  // loop from the start, an empty answer) is explained by that, and is not counted off_prompt
  // or wrong_language as well.
  const adherenceVerdict = (): SampleVerdict => {
    if (!adherence || !probe.expect) return 'ok';
    const textFailed = findings.some((f) => f.severity === 'fail');
    let worst: SampleVerdict = 'ok';
    for (const f of adherenceFindings(adherence, probe.expect)) {
      if ((f.kind === 'off_prompt' || f.kind === 'wrong_language') && textFailed) continue;
      sampleFinding(
        { kind: f.kind, severity: f.severity, certain: false, atChar: -1, atToken: -1, detail: f.detail, excerpt: '', channel: 'sample' },
        'sample',
      );
      worst = worstVerdict([worst, f.severity]);
    }
    return worst;
  };
  // A non-streamed chat completion still says how the model writes; an HTML page does not.
  if (error && !(error.type === 'not_streaming' && hasText)) {
    verdict = 'error';
    reasons.push(`${error.type}: ${error.message}`);
  } else {
    if (error) reasons.push(`${error.type}: ${error.message} (the body was analysed anyway)`);
    verdict = worstVerdict([textVerdict(result, content, reasoning, sampleFinding, logprobs), adherenceVerdict()]);
    if (result.stopReason === 'repetition_detected') {
      verdict = 'fail';
      sampleFinding(
        sampleLevel('engine_repetition_stop', 'fail', 'the server stopped the generation because it detected repetition'),
        'sample',
      );
    }
    if (verdict === 'ok' && result.outputTokens < probe.minTokens) {
      verdict = 'warn';
      sampleFinding(
        sampleLevel(
          'inconclusive',
          'warn',
          `${result.outputTokens} output tokens, fewer than minTokens ${probe.minTokens} (finish_reason ${result.finishReason ?? 'none'})`,
        ),
        'sample',
      );
    }
  }

  const streamingSeconds = result.ttftSeconds === null ? 0 : result.durationSeconds - result.ttftSeconds;
  const notes = [...request.notes];
  // Closed early on a stream that failed anyway (a malformed event first): an error, nothing saved.
  const abortedAt = request.abortedAtTokens;
  if (abortedAt !== null && verdict === 'error') {
    notes.push(`the stream was closed early at ${abortedAt} tokens (collapse certain), after it had failed (${error?.type ?? 'error'})`);
  }
  // A score that could not be computed: the rules judged that channel, and the run page says why it shows no score.
  for (const [channel, a] of [
    ['content', content],
    ['reasoning', reasoning],
  ] as const) {
    if (a?.scoreError !== undefined) notes.push(`${channel}: the learned model gave no score (${a.scoreError}); the rules decided`);
  }
  const aborted = abortedAt !== null && verdict !== 'error';
  const onsetToken = content.metrics.repeatOnsetToken;
  return {
    index,
    verdict,
    reasons,
    findings,
    notes,
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
    aborted,
    tokensAtAbort: aborted ? abortedAt : null,
    onsetToken: onsetToken >= 0 ? onsetToken : null,
    tokensSaved: aborted ? Math.max(0, probe.maxTokens - abortedAt) : 0,
    metrics: hasText || !error ? { content: content.metrics, reasoning: reasoning?.metrics ?? null, combined: combined.metrics } : null,
    error,
    adherence,
    logprobs,
    score: content.score || reasoning?.score ? { content: content.score ?? null, reasoning: reasoning?.score ?? null } : null,
    temperature: probe.temperature,
    ...(request.temperatureOmitted ? { temperatureSent: false as const } : {}),
    content: result.content,
    reasoning: result.reasoning,
  };
}

function sampleLevel(kind: 'inconclusive' | 'engine_repetition_stop', severity: 'warn' | 'fail', detail: string): SampleFinding {
  return { kind, severity, certain: false, atChar: -1, atToken: -1, detail, excerpt: '', channel: 'sample' };
}

function textVerdict(
  result: StreamResult,
  content: Analysis,
  reasoning: Analysis | null,
  add: (f: Finding | SampleFinding, channel: SampleFinding['channel']) => void,
  logprobs: StreamResult['logprobs'] = null,
): SampleVerdict {
  // A reasoning model that spent the whole budget thinking returns no content: that says the
  // probe's maxTokens is too small, not that the model collapsed (unless the reasoning did).
  const contentBlank = result.content.trim().length === 0;
  if (contentBlank && reasoning && reasoning.verdict !== 'fail' && result.finishReason === 'length') {
    add(sampleLevel('inconclusive', 'warn', 'the token budget ran out during reasoning, no content was produced'), 'sample');
    return 'warn';
  }
  // Logprobs strengthen a warn of the answer into a fail (a loop locked in at logprob ~0,
  // garble at very low logprobs); they never make a finding of their own.
  let contentVerdict = content.verdict;
  for (const f of content.findings) {
    const why = f.severity === 'warn' ? logprobEscalation(f.kind, REPEAT_KINDS.has(f.kind), logprobs ?? null) : null;
    if (why) {
      add({ ...f, severity: 'fail', detail: `${f.detail}; ${why}` }, 'content');
      contentVerdict = 'fail';
    } else {
      add(f, 'content');
    }
  }
  if (reasoning) for (const f of reasoning.findings) add(f, 'reasoning');
  return worstVerdict([contentVerdict, ...(reasoning ? [reasoning.verdict] : [])]);
}

export function crashedSample(index: number, err: unknown): SampleResult {
  return errorSample(index, 'internal', err instanceof Error ? err.message : String(err));
}

export function errorSample(index: number, type: SampleErrorType, message: string): SampleResult {
  return {
    index,
    verdict: 'error',
    reasons: [`${type}: ${message}`],
    findings: [],
    notes: [],
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

/** The distinct finding kinds of a sample: the `kind` label of coherency_degeneration_reasons_total. */
export function findingKinds(findings: readonly Pick<SampleFinding, 'kind'>[]): string[] {
  return [...new Set(findings.map((f) => f.kind))];
}
