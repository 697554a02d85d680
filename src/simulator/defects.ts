/**
 * Switches that make the simulator answer like a broken server or a broken proxy in front of
 * one, one switch per defect the conformance probe looks for. They are chosen by the request
 * path, so one simulator serves a healthy target and defective ones side by side:
 * `http://HOST:PORT/defect/buffered/v1` is a target behind a buffering proxy,
 * `/defect/buffered+usage-missing/v1` has two defects, `/v1` none.
 */
export interface DefectDefinition {
  name: string;
  /** What the switch does, one line (for `simulate --help` and docs/conformance.md). */
  description: string;
  /** The conformance check that is meant to fail with this switch on, and the reason it gives. */
  check: string;
  reason: string;
}

export const DEFECTS = [
  {
    name: 'buffered',
    description: 'a buffering proxy: a streamed answer is held back and sent in one piece when it ends',
    check: 'streaming',
    reason: 'buffered',
  },
  {
    name: 'reasoning-dropped',
    description: 'a gateway that drops reasoning_content from every delta and message (the chunks still arrive)',
    check: 'reasoning',
    reason: 'reasoning_missing',
  },
  {
    name: 'think-in-content',
    description: 'a chat template without a reasoning parser: the reasoning arrives in content inside <think>...</think>',
    check: 'reasoning',
    reason: 'think_in_content',
  },
  {
    name: 'tool-index-zero',
    description: 'every streamed tool_calls delta says index 0, so parallel calls run into one another',
    check: 'tools',
    reason: 'index_collision',
  },
  {
    name: 'created-as-string',
    description: 'a proxy that re-encodes the JSON it passes on: `created` arrives as a string in every chunk and body',
    check: 'fields',
    reason: 'field_type',
  },
  {
    name: 'usage-missing',
    description: 'stream_options.include_usage is ignored: no usage chunk at the end of a stream',
    check: 'streaming',
    reason: 'usage_chunk_missing',
  },
  {
    name: 'usage-wrong-total',
    description: 'usage.total_tokens is not prompt_tokens + completion_tokens',
    check: 'chat',
    reason: 'usage_total_mismatch',
  },
  {
    name: 'model-renamed',
    description: 'answers name another model ("rerouted-model") than the one asked for',
    check: 'models',
    reason: 'model_mismatch',
  },
  {
    name: 'max-tokens-ignored',
    description: 'max_tokens is dropped: answers run to the default limit (4096 tokens)',
    check: 'limits',
    reason: 'max_tokens_exceeded',
  },
  { name: 'stop-ignored', description: 'stop sequences are dropped: the output runs past them', check: 'limits', reason: 'stop_ignored' },
  {
    name: 'auth-open',
    description: 'the API key (simulate --api-key-env) is not enforced: any key, or none, is accepted',
    check: 'auth',
    reason: 'accepted_without_key',
  },
  {
    name: 'finish-rewritten',
    description: 'finish_reason "length" is rewritten to "stop", as gateways that normalize it do',
    check: 'limits',
    reason: 'finish_not_length',
  },
] as const satisfies readonly DefectDefinition[];

export type DefectName = (typeof DEFECTS)[number]['name'];

export type Defects = ReadonlySet<DefectName>;

export const NO_DEFECTS: Defects = new Set();

const NAMES: ReadonlySet<string> = new Set(DEFECTS.map((d) => d.name));

/** The model a `model-renamed` answer names. */
export const RENAMED_MODEL = 'rerouted-model';

export type DefectPath = { ok: true; defects: Defects; path: string } | { ok: false; message: string };

/**
 * Splits `/defect/a+b/v1/...` into its switches and the route after them; a path without the
 * prefix has none. An unknown switch is an error naming the known ones.
 */
export function splitDefectPath(path: string): DefectPath {
  const match = /^\/defect\/([^/]*)(\/.*)?$/.exec(path);
  if (!match) return { ok: true, defects: NO_DEFECTS, path };
  const names = (match[1] ?? '').split('+').filter((n) => n !== '');
  const unknown = names.filter((n) => !NAMES.has(n));
  if (names.length === 0 || unknown.length > 0) {
    const what = unknown.length > 0 ? `Unknown defect ${unknown.map((n) => `\`${n}\``).join(', ')}` : 'No defect named';
    return { ok: false, message: `${what} in the path. Known defects: ${DEFECTS.map((d) => d.name).join(', ')}.` };
  }
  return { ok: true, defects: new Set(names as DefectName[]), path: match[2] ?? '/' };
}
