import type { ConformanceCheckName } from '../../config/probeKindTypes.js';

/** What a check says: it passed, it failed, or it could not apply to this target (with why). */
export type CheckStatus = 'pass' | 'fail' | 'skipped';

/**
 * Every reason a check can give, a fixed set: safe as the `reason` label of
 * coherency_conformance_check_failures_total, and what callers branch on (never the detail).
 */
export const CHECK_REASONS = [
  'ok',
  // any check: the answer that would decide it did not come, or not as JSON
  'no_response',
  'http_status',
  'bad_body',
  'internal_error',
  // skipped
  'not_reasoning_model',
  'no_api_key',
  'tools_not_supported',
  'not_in_api',
  // models
  'model_not_listed',
  'model_mismatch',
  // chat
  'content_not_string',
  'usage_missing',
  'usage_total_mismatch',
  // chat, fields
  'unknown_finish_reason',
  // fields
  'field_type',
  // reasoning
  'reasoning_missing',
  'think_in_content',
  // tools
  'no_tool_call',
  'wrong_tool_name',
  'arguments_not_json',
  'arguments_schema',
  'finish_not_tool_calls',
  'stream_mismatch',
  'index_collision',
  // streaming
  'not_streamed',
  'buffered',
  'no_done',
  'usage_chunk_missing',
  'usage_count_mismatch',
  // limits
  'max_tokens_exceeded',
  'finish_not_length',
  'stop_ignored',
  // auth
  'accepted_without_key',
  'accepted_wrong_key',
  'unexpected_status',
] as const;

export type CheckReason = (typeof CHECK_REASONS)[number];

/** The few figures and JSON fields that decided a check: flat, short, never a credential. */
export type Evidence = Record<string, string | number | boolean | null>;

/** What a check function returns. */
export interface CheckVerdict {
  status: CheckStatus;
  reason: CheckReason;
  /** One sentence for people ("GET /models lists 3 models, not qwen3-8b"). Derived, never parsed. */
  detail: string;
  evidence: Evidence;
}

/** A check's verdict as a run keeps it: named and timed. */
export interface CheckResult extends CheckVerdict {
  check: ConformanceCheckName;
  durationSeconds: number;
}

/** What a conformance sample carries besides the usual fields (shown in /runs, the CLI, never as labels). */
export interface ConformanceOutcome {
  checks: CheckResult[];
  /** Whether the model reasons: as configured, or as its answers showed (null: not known). */
  reasoningModel: boolean | null;
  /** The streaming check's figures, when it measured them (exported as gauges). */
  streaming: { lateContentRatio: number; firstContentRatio: number } | null;
}

export const pass = (detail: string, evidence: Evidence = {}): CheckVerdict => ({ status: 'pass', reason: 'ok', detail, evidence });
export const fail = (reason: CheckReason, detail: string, evidence: Evidence = {}): CheckVerdict => ({
  status: 'fail',
  reason,
  detail,
  evidence,
});
export const skip = (reason: CheckReason, detail: string, evidence: Evidence = {}): CheckVerdict => ({
  status: 'skipped',
  reason,
  detail,
  evidence,
});

/** A JSON value's type as the checks name it: null, array, integer, number, string, boolean, object, absent. */
export function typeOf(v: unknown): string {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string for evidence: at most 120 characters, whitespace flattened. */
export function short(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
