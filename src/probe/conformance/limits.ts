import { answerProblem, ask, type CheckContext } from './checkContext.js';
import { fail, pass, short, typeOf, type CheckVerdict, type Evidence } from './checkTypes.js';
import { readApiCompletion } from './apiAnswers.js';

/** The limit asked for: small enough to cut any answer to the prompt below. */
export const LIMIT_TOKENS = 16;
/** Under this many tokens a `stop` finish is the model ending by itself, not a rewritten `length`. */
const NATURAL_END_BELOW = 12;
export const COUNT_PROMPT = 'Count from 1 to 100, separated by commas.';
/** Every answer to it has a period; the stop sequence is the period. */
export const STOP_PROMPT = 'Write three short sentences about the sea.';
export const STOP_SEQUENCE = '.';

/**
 * limits: `max_tokens: 16` gives at most 16 completion tokens and finish_reason length (a proxy
 * that drops max_tokens, or rewrites finish reasons to stop, fails here), and a `stop` sequence
 * ends the output before it. On completions the same; on responses `max_output_tokens: 16`
 * gives status incomplete for max_output_tokens (read as length), and the stop half is left out:
 * the responses API has no stop sequences.
 */
export async function checkLimits(ctx: CheckContext): Promise<CheckVerdict> {
  const field = ctx.words.maxTokens;
  const limited = await ctx.send({ path: ctx.path, body: ctx.apiBody(ask(COUNT_PROMPT), false, {}, LIMIT_TOKENS) });
  const problem = answerProblem(limited, `a ${ctx.api === 'responses' ? 'response' : 'completion'} with ${field} ${LIMIT_TOKENS}`, {
    json: true,
  });
  if (problem) return problem;
  const a = readApiCompletion(ctx.api, limited.body);
  const tokens = a?.usage?.completion;
  const finish = a?.finishReason;
  const evidence: Evidence = {
    [field]: LIMIT_TOKENS,
    completion_tokens: typeof tokens === 'number' ? tokens : null,
    finish_reason: typeof finish === 'string' ? finish : typeOf(finish),
  };
  if (typeof tokens === 'number' && tokens > LIMIT_TOKENS)
    return fail(
      'max_tokens_exceeded',
      `${field} ${LIMIT_TOKENS} gave ${tokens} ${ctx.api === 'responses' ? 'output' : 'completion'} tokens: the limit did not reach the server`,
      evidence,
    );
  // a count below zero is no count (fields says so): it does not make the answer one that ended by itself
  if (finish !== 'length' && !(typeof tokens === 'number' && tokens >= 0 && tokens < NATURAL_END_BELOW))
    return fail(
      'finish_not_length',
      `${field} ${LIMIT_TOKENS} cut the answer${typeof tokens === 'number' ? ` at ${tokens} tokens` : ''}, but ${ctx.api === 'responses' ? `its status reads as ${evidence['finish_reason']}` : `finish_reason says ${evidence['finish_reason']}`}, not length`,
      evidence,
    );

  if (ctx.api === 'responses')
    return pass(
      `max_output_tokens ${LIMIT_TOKENS} gave ${typeof tokens === 'number' ? tokens : 'an unreported number of'} tokens, status read as ${evidence['finish_reason']}; the responses API has no stop sequences to check`,
      evidence,
    );
  const stopped = await ctx.send({ path: ctx.path, body: ctx.apiBody(ask(STOP_PROMPT), false, { stop: [STOP_SEQUENCE] }) });
  const stopProblem = answerProblem(stopped, 'a completion with a stop sequence', { json: true });
  if (stopProblem) return stopProblem;
  const b = readApiCompletion(ctx.api, stopped.body);
  const text = typeof b?.content === 'string' ? b.content : '';
  const stopEvidence: Evidence = {
    ...evidence,
    stop: STOP_SEQUENCE,
    'stop finish_reason': typeof b?.finishReason === 'string' ? b.finishReason : typeOf(b?.finishReason),
    'stop output': short(text, 80),
  };
  if (text.includes(STOP_SEQUENCE))
    return fail('stop_ignored', `with stop ["${STOP_SEQUENCE}"] the output still holds it: "${short(text, 60)}"`, stopEvidence);
  return pass(
    `max_tokens ${LIMIT_TOKENS} gave ${typeof tokens === 'number' ? tokens : 'an unreported number of'} tokens, finish_reason ${evidence['finish_reason']}; stop ["${STOP_SEQUENCE}"] ended the output before it`,
    stopEvidence,
  );
}
