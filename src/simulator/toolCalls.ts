import type { ToolCall } from './chunks.js';
import { createRng } from '../prose/random.js';
import type { TokenSource } from './tokenSource.js';

/**
 * How the simulator answers a request that offers function tools: the way a model that
 * follows the prompt would, without a model. It calls the first offered tool (or the one
 * tool_choice names) once per proper name of the last user message ("the weather in Paris and
 * in Tokyo": two calls), filling the tool's required parameters from their JSON Schema.
 */

/** A function tool as a request offers it: its name and its parameters' JSON Schema. */
export interface OfferedTool {
  name: string;
  parameters: Record<string, unknown>;
}

/** The function tools a request body offers, null when none (or tool_choice "none"); a string is the 400 message. */
export function offeredTools(body: Record<string, unknown>): OfferedTool[] | null | string {
  const tools = body['tools'];
  if (tools === undefined || tools === null) return null;
  if (!Array.isArray(tools)) return '`tools` must be an array.';
  const out: OfferedTool[] = [];
  for (const tool of tools as unknown[]) {
    const t = tool as { type?: unknown; function?: { name?: unknown; parameters?: unknown } } | null;
    if (t?.type !== 'function' || typeof t.function?.name !== 'string' || t.function.name === '')
      return 'Each of `tools` must be {"type": "function", "function": {"name": ..., "parameters": ...}}.';
    const parameters = t.function.parameters;
    out.push({
      name: t.function.name,
      parameters: typeof parameters === 'object' && parameters !== null ? (parameters as Record<string, unknown>) : {},
    });
  }
  const choice = body['tool_choice'];
  if (out.length === 0 || choice === 'none') return null;
  const named = (choice as { function?: { name?: unknown } } | null)?.function?.name;
  if (typeof named === 'string') {
    const tool = out.find((t) => t.name === named);
    return tool ? [tool] : `tool_choice names \`${named}\`, which is not among the tools.`;
  }
  return out;
}

/** Capitalized words that do not open a sentence: the places and names a prompt asks about. */
export function properNames(text: string): string[] {
  const names: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    const words = sentence.match(/[\p{L}][\p{L}\p{N}_-]*/gu) ?? [];
    for (const word of words.slice(1)) {
      if (/^\p{Lu}\p{Ll}/u.test(word) && !names.includes(word)) names.push(word);
    }
  }
  return names;
}

/** A value of a JSON Schema property: the name for the first string, else the first enum value or a plain value of its type. */
function valueFor(schema: Record<string, unknown>, name: string, nameUsed: boolean): unknown {
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  switch (schema['type']) {
    case 'string':
      return nameUsed ? 'default' : name;
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return name;
  }
}

/** The arguments of one call: every required property of the tool's parameters, as JSON text. */
export function callArguments(tool: OfferedTool, name: string): string {
  const properties = (tool.parameters['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(tool.parameters['required']) ? (tool.parameters['required'] as unknown[]) : Object.keys(properties);
  const args: Record<string, unknown> = {};
  let nameUsed = false;
  for (const key of required) {
    if (typeof key !== 'string') continue;
    const schema = properties[key] ?? { type: 'string' };
    args[key] = valueFor(schema, name, nameUsed);
    if (args[key] === name) nameUsed = true;
  }
  return JSON.stringify(args);
}

/** The calls of one answer: the tool, once per proper name of the prompt (once with "default" when it has none). */
export function planToolCalls(tools: readonly OfferedTool[], lastUser: string, seed: number): ToolCall[] {
  const tool = tools[0] as OfferedTool;
  const rng = createRng(seed);
  const names = properNames(lastUser).filter((n) => !tools.some((t) => t.name === n));
  return (names.length > 0 ? names : ['default']).map((name) => ({
    id: `call_${Math.floor(rng() * 2 ** 32)
      .toString(16)
      .padStart(8, '0')}${Math.floor(rng() * 2 ** 32)
      .toString(16)
      .padStart(8, '0')}`,
    name: tool.name,
    arguments: callArguments(tool, name),
  }));
}

/** Arguments are streamed in pieces of this many characters, as tool parsers send them. */
const ARGUMENT_PIECE = 6;

/** The calls as tokens: each opens with its id and name (no arguments yet), then its arguments in pieces. */
export function toolCallSource(calls: readonly ToolCall[]): TokenSource {
  const tokens = calls.flatMap((call, index) => {
    const pieces = [];
    for (let i = 0; i < call.arguments.length; i += ARGUMENT_PIECE) pieces.push(call.arguments.slice(i, i + ARGUMENT_PIECE));
    return [
      { text: '', reasoning: false, tool: { index, open: { id: call.id, name: call.name } } },
      ...pieces.map((text) => ({ text, reasoning: false, tool: { index } })),
    ];
  });
  let i = 0;
  return { next: () => tokens[i++] ?? null };
}
