import type { StreamApi } from '../../core/apiChunks.js';
import { KNOWN_FINISH_REASONS } from './chat.js';
import { answerProblem, type CheckContext } from './checkContext.js';
import { fail, isObject, pass, short, typeOf, type CheckVerdict, type Evidence, type Json } from './checkTypes.js';
import type { StreamAnswer } from './readAnswers.js';

/** A field that does not have the type clients read it as. */
export interface FieldProblem {
  field: string;
  expected: string;
  got: string;
}

type Rule = [field: string, expected: string, ok: (v: unknown) => boolean];

const str = (v: unknown) => typeof v === 'string';
const int = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
/** A token count: a whole number, never below zero (a -1 reads to a client as a count it can add). */
const count = (v: unknown) => int(v) && (v as number) >= 0;
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const obj = (v: unknown) => isObject(v);
const finish = (v: unknown) => v === null || v === undefined || str(v);
/** A usage object whose `keys` are each absent, null or a count; or no usage at all. */
const countsOf =
  (keys: readonly string[]) =>
  (v: unknown): boolean =>
    v === null || v === undefined || (isObject(v) && keys.every((k) => v[k] === undefined || v[k] === null || count(v[k])));
const counts = countsOf(['prompt_tokens', 'completion_tokens', 'total_tokens']);

/** The fields every client reads (the OpenAI SDKs, LangChain, LiteLLM), at the top of a completion or a chunk. */
const TOP: readonly Rule[] = [
  ['id', 'string', str],
  ['object', 'string', str],
  ['created', 'number', num],
  ['model', 'string', str],
  ['choices', 'array', Array.isArray],
  ['usage', 'object with counts (integers, 0 or more), or null', counts],
];

function audit(json: Json, rules: readonly Rule[], choiceRules: readonly Rule[]): FieldProblem | null {
  for (const [field, expected, ok] of rules) if (!ok(json[field])) return { field, expected, got: typeOf(json[field]) };
  const choices = json['choices'] as unknown[];
  for (const [i, choice] of choices.entries()) {
    if (!isObject(choice)) return { field: `choices[${i}]`, expected: 'object', got: typeOf(choice) };
    for (const [field, expected, ok] of choiceRules)
      if (!ok(choice[field])) return { field: `choices[${i}].${field}`, expected, got: typeOf(choice[field]) };
  }
  return null;
}

/** The first field of a non-streamed completion with the wrong type, or null. */
export function auditCompletion(json: Json, api: StreamApi = 'chat'): FieldProblem | null {
  if (api === 'responses') return auditResponse(json);
  const choices = json['choices'];
  if (Array.isArray(choices) && choices.length === 0) return { field: 'choices', expected: 'a non-empty array', got: 'empty array' };
  return audit(json, TOP, [['index', 'integer', int], api === 'completions' ? TEXT : ['message', 'object', obj], FINISH]);
}

/** The first field of a stream chunk with the wrong type, or null (a usage chunk may have no choices). */
export function auditChunk(json: Json, api: StreamApi = 'chat'): FieldProblem | null {
  if (api === 'responses') return auditEvent(json);
  return audit(json, TOP, [['index', 'integer', int], api === 'completions' ? TEXT : ['delta', 'object', obj], FINISH]);
}

const FINISH: Rule = ['finish_reason', 'string or null', finish];
/** A completions choice's text, where chat's has its message or delta. */
const TEXT: Rule = ['text', 'string', str];

const responseCounts = countsOf(['input_tokens', 'output_tokens', 'total_tokens']);

/** The fields of a response object the SDKs read (OpenAI's Response: created_at, status, output items). */
const RESPONSE: readonly Rule[] = [
  ['id', 'string', str],
  ['object', 'string', str],
  ['created_at', 'number', num],
  ['model', 'string', str],
  ['status', 'string', str],
  ['output', 'array', Array.isArray],
  ['usage', 'object with counts (integers, 0 or more), or null', responseCounts],
];

function auditResponse(json: Json, prefix = ''): FieldProblem | null {
  for (const [field, expected, ok] of RESPONSE) if (!ok(json[field])) return { field: prefix + field, expected, got: typeOf(json[field]) };
  for (const [i, item] of (json['output'] as unknown[]).entries())
    if (!isObject(item) || !str(item['type']))
      return {
        field: `${prefix}output[${i}]`,
        expected: 'an object with a string type',
        got: isObject(item) ? typeOf(item['type']) : typeOf(item),
      };
  return null;
}

/** One event of a responses stream: a string type, the response of a lifecycle event, the string of a delta. */
function auditEvent(json: Json): FieldProblem | null {
  const type = json['type'];
  if (!str(type)) return { field: 'type', expected: 'string', got: typeOf(type) };
  if (isObject(json['response'])) return auditResponse(json['response'], 'response.');
  if ((type as string).endsWith('.delta') && !str(json['delta'])) return { field: 'delta', expected: 'string', got: typeOf(json['delta']) };
  return null;
}

/** The stream's part of the audit: each chunk's fields, and its finish reasons. Pure, for recorded streams too. */
export function auditStream(
  s: StreamAnswer,
  api: StreamApi = 'chat',
): { problem: FieldProblem & { where: string }; reason: 'field_type' | 'unknown_finish_reason' } | null {
  for (const [i, e] of s.events.entries()) {
    if (!e.json) {
      if (e.data.trim() !== '' && !/^\s*\{\s*"error"/.test(e.data))
        return {
          reason: 'field_type',
          problem: { where: `event ${i + 1}`, field: 'data', expected: 'a JSON object', got: short(e.data, 40) },
        };
      continue;
    }
    if (isObject(e.json) && e.json['error'] !== undefined && e.json['choices'] === undefined) continue;
    const p = auditChunk(e.json, api);
    if (p) return { reason: 'field_type', problem: { ...p, where: `chunk ${i + 1}` } };
  }
  const unknown = s.finishReasons.find((r) => !KNOWN_FINISH_REASONS.includes(r));
  if (unknown !== undefined)
    return {
      reason: 'unknown_finish_reason',
      problem: { where: 'stream', field: 'finish_reason', expected: KNOWN_FINISH_REASONS.join('|'), got: unknown },
    };
  return null;
}

/** What the audit records whatever it finds: the fingerprint and how the stream ended. */
export function streamRecord(s: StreamAnswer): Evidence {
  return {
    chunks: s.events.length,
    system_fingerprint: s.fingerprints.join(', ') || null,
    usageChunkChoices: s.usageChunkChoices,
  };
}

/**
 * fields: the raw field audit. The types of the fields clients read (id, object, created, model,
 * choices[].index, message or delta, finish_reason, usage) in a completion and in every chunk of
 * a stream, finish_reason values clients know, and system_fingerprint recorded. A proxy that turns
 * `created` into a string or drops `delta` breaks clients that never show why.
 */
export async function checkFields(ctx: CheckContext): Promise<CheckVerdict> {
  const [c, s] = [await ctx.completion(), await ctx.stream()];
  const what = ctx.words.answer;
  const problem =
    answerProblem(c.exchange, what, { json: true }) ?? answerProblem(s.exchange, what.replace(/^a /, 'a streamed '), { cutIsOk: true });
  if (problem || !c.answer || !s.answer) return problem ?? fail('bad_body', 'no answer to audit');
  const evidence: Evidence = {
    ...streamRecord(s.answer),
    'completion system_fingerprint': typeof c.answer.json['system_fingerprint'] === 'string' ? c.answer.json['system_fingerprint'] : null,
  };
  const inCompletion = auditCompletion(c.answer.json, ctx.api);
  if (inCompletion)
    return fail(
      'field_type',
      `the ${ctx.api === 'responses' ? 'response' : 'completion'}'s ${inCompletion.field} is ${inCompletion.got}, not ${inCompletion.expected}`,
      {
        ...evidence,
        where: 'completion',
        ...fieldEvidence(inCompletion),
      },
    );
  const finishReason = c.answer.finishReason;
  if (typeof finishReason === 'string' && !KNOWN_FINISH_REASONS.includes(finishReason))
    return fail(
      'unknown_finish_reason',
      `the ${ctx.api === 'responses' ? "response's status reads as" : "completion's finish_reason is"} ${short(finishReason, 40)}`,
      {
        ...evidence,
        finish_reason: finishReason,
      },
    );
  const inStream = auditStream(s.answer, ctx.api);
  if (inStream) {
    const p = inStream.problem;
    return fail(inStream.reason, `${p.where}: ${p.field} is ${p.got}, not ${p.expected}`, {
      ...evidence,
      where: p.where,
      ...fieldEvidence(p),
    });
  }
  const parts = ctx.api === 'responses' ? 'events' : 'chunks';
  return pass(`${what.replace(/^a chat /, 'a ')} and ${s.answer.events.length} ${parts} have the types clients read`, evidence);
}

function fieldEvidence(p: FieldProblem): Evidence {
  return { field: p.field, expected: p.expected, got: p.got };
}
