/**
 * A finished run as OpenTelemetry GenAI evaluation events (the `gen_ai.evaluation.result` event
 * of the semantic conventions, still marked development): one per sample, judged as a whole,
 * and one per finding of a sample, named after the detector that made it. Pure: the exporter
 * sends what this returns.
 *
 * Nothing of the request or the answer goes in: no header, no key, no prompt and no output
 * text (a finding's detail and excerpt quote the output, so only its kind and place are said).
 */
import { DETECTORS } from '../core/detectors/registry.js';
import type { RunResult, SampleFinding, SampleResult } from '../probe/probeTypes.js';
import type { RunContext } from './evaluationSink.js';

export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

/**
 * What gen_ai.provider.name says of every target: the API's family. The config does not say who
 * serves an OpenAI-compatible endpoint (vLLM, a proxy, OpenAI itself), and the conventions name
 * providers, not servers; the fingerprint on the run page says more.
 */
export const PROVIDER_NAME = 'openai';

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

export interface EvaluationEvent {
  eventName: typeof EVALUATION_EVENT;
  /** OpenTelemetry severity: INFO (9) ok, WARN (13) warn, ERROR (17) fail and error. */
  severityNumber: number;
  severityText: string;
  attributes: Attributes;
}

/** gen_ai.operation.name by API: the responses API is a chat (input items, one answer), completions is a text completion. */
export function operationName(api: RunContext['target']['api']): string {
  return api === 'completions' ? 'text_completion' : 'chat';
}

/** server.address and server.port of a base URL (the port its scheme implies when none is written). */
export function serverOf(baseUrl: string): { 'server.address': string; 'server.port': number } | Record<string, never> {
  try {
    const url = new URL(baseUrl);
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { 'server.address': url.hostname.replace(/^\[(.*)\]$/, '$1'), 'server.port': port };
  } catch {
    return {};
  }
}

/** The attributes every event and every metric point of a target carries (bounded: a target has one of each). */
export function targetAttributes(target: RunContext['target']): Attributes {
  return {
    'gen_ai.operation.name': operationName(target.api),
    'gen_ai.provider.name': PROVIDER_NAME,
    'gen_ai.request.model': target.model,
    ...serverOf(target.baseUrl),
    'coherency.target': target.name,
  };
}

const DETECTOR_OF_KIND: ReadonlyMap<string, string> = new Map(
  DETECTORS.flatMap((d) => (d.kinds as readonly string[]).map((kind) => [kind, d.name] as const)),
);

/** The detector that reports a finding kind; kinds no detector makes (learned, recall_missed, off_prompt, ...) name themselves. */
export function evaluatorOf(kind: string): string {
  return DETECTOR_OF_KIND.get(kind) ?? kind;
}

const SEVERITY: Record<string, [number, string]> = {
  ok: [9, 'INFO'],
  warn: [13, 'WARN'],
  fail: [17, 'ERROR'],
  error: [17, 'ERROR'],
};

function severity(label: string): Pick<EvaluationEvent, 'severityNumber' | 'severityText'> {
  const [severityNumber, severityText] = SEVERITY[label] ?? [9, 'INFO'];
  return { severityNumber, severityText };
}

/** Where a finding is, said without its text: "sentence_loop at token 812 (content)". */
function placeOf(f: Pick<SampleFinding, 'kind' | 'atToken' | 'channel'>): string {
  const at = f.atToken >= 0 ? ` at token ${f.atToken}` : '';
  return `${f.kind}${at} (${f.channel})`;
}

/** The learned model's probability of the sample's answer, where the verdict had one. */
function probability(sample: SampleResult, channel: 'content' | 'reasoning' = 'content'): number | undefined {
  const p = sample.score?.[channel]?.probability;
  return typeof p === 'number' && Number.isFinite(p) ? p : undefined;
}

/** The events of one finished run, samples in order, each followed by its findings' events. */
export function evaluationEvents(run: RunResult, context: RunContext): EvaluationEvent[] {
  const link = `run /runs/${run.id}`;
  const common: Attributes = {
    ...targetAttributes(context.target),
    ...(context.responseModel ? { 'gen_ai.response.model': context.responseModel } : {}),
    'coherency.probe': run.probe,
    'coherency.run_id': run.id,
  };
  const events: EvaluationEvent[] = [];
  for (const sample of run.samples) {
    const per: Attributes = {
      ...common,
      'coherency.sample': sample.index,
      ...(sample.temperature !== undefined && sample.temperatureSent !== false ? { 'gen_ai.request.temperature': sample.temperature } : {}),
      ...(sample.error ? { 'error.type': sample.error.type } : {}),
    };
    const score = probability(sample);
    const onset = sample.onsetToken !== null ? `, collapse from token ${sample.onsetToken}` : '';
    const found = sample.findings.length > 0 ? `: ${sample.findings.map(placeOf).join('; ')}` : '';
    events.push({
      eventName: EVALUATION_EVENT,
      ...severity(sample.verdict),
      attributes: {
        ...per,
        'gen_ai.evaluation.name': context.probeKind,
        'gen_ai.evaluation.score.label': sample.verdict,
        ...(score !== undefined ? { 'gen_ai.evaluation.score.value': score } : {}),
        'gen_ai.evaluation.explanation': `${sample.verdict}${found}${onset}; ${link}`,
        ...(sample.onsetToken !== null ? { 'coherency.onset_token': sample.onsetToken } : {}),
      },
    });
    for (const f of sample.findings) {
      const value = f.kind === 'learned' && f.channel !== 'sample' ? probability(sample, f.channel) : undefined;
      events.push({
        eventName: EVALUATION_EVENT,
        ...severity(f.severity),
        attributes: {
          ...per,
          'gen_ai.evaluation.name': evaluatorOf(f.kind),
          'gen_ai.evaluation.score.label': f.severity,
          ...(value !== undefined ? { 'gen_ai.evaluation.score.value': value } : {}),
          'gen_ai.evaluation.explanation': `${placeOf(f)}; ${link}`,
          'coherency.finding.kind': f.kind,
          'coherency.channel': f.channel,
          ...(f.atToken >= 0 ? { 'coherency.onset_token': f.atToken } : {}),
        },
      });
    }
  }
  return events;
}
