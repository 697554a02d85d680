import { answerProblem, type CheckContext } from './checkContext.js';
import { fail, pass, short, typeOf, type CheckVerdict } from './checkTypes.js';

/** The finish_reason values of the OpenAI API (function_call: its deprecated form of tool_calls). */
export const KNOWN_FINISH_REASONS: readonly string[] = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * chat: a non-streamed completion has its text as a string in choices[0].message.content, a
 * known finish_reason, and usage whose total_tokens is prompt_tokens + completion_tokens (a proxy
 * that rewrites usage bills something else).
 */
export async function checkChat(ctx: CheckContext): Promise<CheckVerdict> {
  const { exchange, answer } = await ctx.completion();
  const problem = answerProblem(exchange, 'a chat completion', { json: true });
  if (problem || !answer) return problem ?? fail('bad_body', 'the chat completion is not a JSON object');
  const evidence = {
    status: exchange.status,
    seconds: Math.round(exchange.endedAtMs) / 1000,
    'choices[0].message.content': typeOf(answer.content),
    finish_reason: typeof answer.finishReason === 'string' ? answer.finishReason : typeOf(answer.finishReason),
  };
  if (typeof answer.content !== 'string') {
    const budget =
      answer.finishReason === 'length' && answer.reasoning.text !== ''
        ? ': the token limit ran out while the model reasoned (raise the probe maxTokens)'
        : '';
    return fail('content_not_string', `choices[0].message.content is ${typeOf(answer.content)}, not a string${budget}`, evidence);
  }
  if (typeof answer.finishReason !== 'string' || !KNOWN_FINISH_REASONS.includes(answer.finishReason))
    return fail(
      'unknown_finish_reason',
      `finish_reason is ${short(JSON.stringify(answer.finishReason) ?? 'absent', 60)}, not one of ${KNOWN_FINISH_REASONS.join(', ')}`,
      evidence,
    );
  const u = answer.usage;
  if (u?.from !== 'usage' || !isCount(u.prompt) || !isCount(u.completion) || !isCount(u.total))
    return fail('usage_missing', 'the completion has no usage with prompt_tokens, completion_tokens and total_tokens', {
      ...evidence,
      usage: u ? `${u.from}: ${typeOf(u.prompt)} ${typeOf(u.completion)} ${typeOf(u.total)}` : 'absent',
    });
  const usage = { ...evidence, prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.total };
  if (u.total !== u.prompt + u.completion)
    return fail(
      'usage_total_mismatch',
      `usage.total_tokens is ${u.total}, not prompt_tokens + completion_tokens = ${u.prompt + u.completion}`,
      usage,
    );
  return pass(
    `"${short(answer.content, 60)}", finish_reason ${answer.finishReason}, ${u.completion} + ${u.prompt} = ${u.total} tokens`,
    usage,
  );
}
