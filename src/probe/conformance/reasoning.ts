import { answerProblem, notInApi, type CheckContext } from './checkContext.js';
import { fail, pass, short, skip, type CheckVerdict, type Evidence } from './checkTypes.js';

/** A reasoning block left in the answer's text: a chat template without a reasoning parser. */
const THINK_BLOCK = /<(think|thinking|reasoning)>|<\/(think|thinking|reasoning)>|<\|begin_of_thought\|>|◁think▷/i;

export interface ReasoningSeen {
  /** The reasoning fields the answer used (reasoning_content, reasoning, reasoning_details, typed parts). */
  fields: readonly string[];
  reasoningChars: number;
  content: string;
}

/** Judges one answer of a reasoning model: reasoning in a field of its own, and no block of it left in content. Pure. */
export function judgeReasoning(seen: ReasoningSeen, what: string, fields: string = REASONING_FIELDS.chat): CheckVerdict | null {
  const leak = THINK_BLOCK.exec(seen.content);
  if (leak) {
    const at = leak.index;
    return fail('think_in_content', `the ${what} has a ${leak[0]} block in its content: the reasoning was not parsed out`, {
      where: what,
      excerpt: short(seen.content.slice(Math.max(0, at - 20), at + 60)),
      reasoningFields: seen.fields.join(', ') || null,
    });
  }
  if (seen.fields.length === 0 || seen.reasoningChars === 0)
    return fail('reasoning_missing', `the ${what} has no reasoning ${fields}: it was dropped on the way`, {
      where: what,
      contentChars: seen.content.length,
    });
  return null;
}

/** Where each API carries reasoning, as the failure names it (completions has no place for it). */
export const REASONING_FIELDS = {
  chat: 'field (reasoning_content, reasoning or reasoning_details)',
  responses: 'item or event (a reasoning output item, response.reasoning_text.delta or response.reasoning_summary_text.delta)',
} as const;

/**
 * reasoning: for a reasoning model (the target says `reasoning: true`, or its answers carried
 * reasoning or a <think> tag), the reasoning arrives in a field of its own, streamed and not,
 * and `content` holds no <think>…</think> block. A gateway that drops the field cannot be told
 * from a model that does not reason by its answers alone: set `reasoning: true` on the target.
 */
export async function checkReasoning(ctx: CheckContext): Promise<CheckVerdict> {
  if (ctx.api === 'completions') return notInApi('completions', 'has no reasoning field: a base model writes any reasoning into its text');
  const reasons = await ctx.reasoningModel();
  const configured = ctx.target.reasoning !== null;
  if (reasons === false)
    return skip(
      'not_reasoning_model',
      configured
        ? 'the target says its model does not reason (reasoning: false)'
        : 'the answers carried no reasoning: the model does not reason (set reasoning: true on the target if it should)',
    );
  const [c, s] = [await ctx.completion(), await ctx.stream()];
  const what = ctx.words.answer;
  const problem =
    answerProblem(c.exchange, what, { json: true }) ?? answerProblem(s.exchange, what.replace(/^a /, 'a streamed '), { cutIsOk: true });
  if (problem || !c.answer || !s.answer) return problem ?? fail('bad_body', 'no answer to read the reasoning of');
  const completion: ReasoningSeen = {
    fields: c.answer.reasoning.fields,
    reasoningChars: c.answer.reasoning.text.length,
    content: typeof c.answer.content === 'string' ? c.answer.content : '',
  };
  const streamed: ReasoningSeen = {
    fields: s.answer.reasoningFields,
    reasoningChars: s.answer.reasoning.length,
    content: s.answer.content,
  };
  const fields = ctx.api === 'responses' ? REASONING_FIELDS.responses : REASONING_FIELDS.chat;
  const verdict = judgeReasoning(completion, 'completion', fields) ?? judgeReasoning(streamed, 'stream', fields);
  const evidence: Evidence = {
    detected: configured ? 'configured' : 'from the answers',
    'completion fields': completion.fields.join(', '),
    'completion reasoning chars': completion.reasoningChars,
    'stream fields': streamed.fields.join(', '),
    'stream reasoning chars': streamed.reasoningChars,
  };
  if (verdict) return { ...verdict, evidence: { ...evidence, ...verdict.evidence } };
  return pass(
    `reasoning arrives in ${[...new Set([...completion.fields, ...streamed.fields])].join(', ')}, streamed and not; content has no <think> block`,
    evidence,
  );
}
