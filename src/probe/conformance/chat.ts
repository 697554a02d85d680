import { answerProblem, type CheckContext } from './checkContext.js';
import { fail, pass, short, typeOf, type CheckVerdict } from './checkTypes.js';

/** The finish_reason values of the OpenAI API (function_call: its deprecated form of tool_calls). */
export const KNOWN_FINISH_REASONS: readonly string[] = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The names of a usage's three counts in the API's answers (responses: input, output, total). */
const USAGE_NAMES = {
  chat: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
  completions: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
  responses: ['input_tokens', 'output_tokens', 'total_tokens'],
} as const;

/**
 * chat: a non-streamed completion has its text as a string in choices[0].message.content, a
 * known finish_reason, and usage whose total_tokens is prompt_tokens + completion_tokens (a proxy
 * that rewrites usage bills something else). The same in the target's API: completions' text is
 * choices[0].text; a response's is the output_text of its message item, its finish reason its
 * status (incomplete for max_output_tokens reads as length), its usage input_tokens + output_tokens.
 */
export async function checkChat(ctx: CheckContext): Promise<CheckVerdict> {
  const { exchange, answer } = await ctx.completion();
  const { words } = ctx;
  const problem = answerProblem(exchange, words.answer, { json: true });
  if (problem || !answer) return problem ?? fail('bad_body', `${words.answer.replace(/^a /, 'the ')} is not a JSON object`);
  const evidence = {
    status: exchange.status,
    seconds: Math.round(exchange.endedAtMs) / 1000,
    [words.content]: typeOf(answer.content),
    finish_reason: typeof answer.finishReason === 'string' ? answer.finishReason : typeOf(answer.finishReason),
  };
  const [prompt, completion, total] = USAGE_NAMES[ctx.api];
  if (typeof answer.content !== 'string') {
    const budget =
      answer.finishReason === 'length' && answer.reasoning.text !== ''
        ? ': the token limit ran out while the model reasoned (raise the probe maxTokens)'
        : '';
    return fail('content_not_string', `${words.content} is ${typeOf(answer.content)}, not a string${budget}`, evidence);
  }
  if (typeof answer.finishReason !== 'string' || !KNOWN_FINISH_REASONS.includes(answer.finishReason))
    return fail(
      'unknown_finish_reason',
      `finish_reason is ${short(JSON.stringify(answer.finishReason) ?? 'absent', 60)}, not one of ${KNOWN_FINISH_REASONS.join(', ')}`,
      evidence,
    );
  const u = answer.usage;
  if (u?.from !== 'usage' || !isCount(u.prompt) || !isCount(u.completion) || !isCount(u.total))
    return fail(
      'usage_missing',
      `the ${ctx.api === 'responses' ? 'response' : 'completion'} has no usage with ${prompt}, ${completion} and ${total}`,
      {
        ...evidence,
        usage: u ? `${u.from}: ${typeOf(u.prompt)} ${typeOf(u.completion)} ${typeOf(u.total)}` : 'absent',
      },
    );
  const usage = { ...evidence, [prompt]: u.prompt, [completion]: u.completion, [total]: u.total };
  if (u.total !== u.prompt + u.completion)
    return fail('usage_total_mismatch', `usage.${total} is ${u.total}, not ${prompt} + ${completion} = ${u.prompt + u.completion}`, usage);
  return pass(
    `"${short(answer.content, 60)}", finish_reason ${answer.finishReason}, ${u.completion} + ${u.prompt} = ${u.total} tokens`,
    usage,
  );
}
