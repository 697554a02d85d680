import { isObject, pass, fail, type CheckVerdict } from './checkTypes.js';
import { answerProblem, modelMatches, type CheckContext } from './checkContext.js';

/** Model ids shown in evidence when the model is not among them. */
const SHOWN_IDS = 5;

/**
 * models: GET /models lists the configured model (or an alias), and the answers name it in
 * `model` (or an alias, or a dated snapshot of it). Catches a model alias that now routes to
 * another model, and a served name that changed under the config.
 */
export async function checkModels(ctx: CheckContext): Promise<CheckVerdict> {
  const { target } = ctx;
  const x = await ctx.send({ path: '/models' });
  const problem = answerProblem(x, 'GET /models', { json: true });
  if (problem) return problem;
  const data = (JSON.parse(x.body) as Record<string, unknown>)['data'];
  if (!Array.isArray(data)) return fail('bad_body', 'GET /models has no `data` list of models', { status: x.status });
  const ids = data.flatMap((m) => (isObject(m) && typeof m['id'] === 'string' ? [m['id']] : []));
  const listed = ids.find((id) => id === target.model || target.modelAliases.includes(id));
  if (listed === undefined) {
    return fail('model_not_listed', `GET /models lists ${ids.length} model${ids.length === 1 ? '' : 's'}, not ${target.model}`, {
      listed: ids.length,
      ids: ids.slice(0, SHOWN_IDS).join(', ') || null,
      asked: target.model,
    });
  }
  // what the answers call the model: a completion's `model`, each chunk's (empty ones say nothing: Azure's first chunk)
  const [c, s] = [await ctx.completion(), await ctx.stream()];
  const answered = [...(typeof c.answer?.model === 'string' && c.answer.model !== '' ? [c.answer.model] : []), ...(s.answer?.models ?? [])];
  const other = answered.find((m) => !modelMatches(m, target));
  const evidence = { asked: target.model, listed: listed, answered: [...new Set(answered)].join(', ') || null };
  if (other !== undefined) return fail('model_mismatch', `asked for ${target.model}, the answer names ${other}`, evidence);
  if (answered.length === 0) return pass(`GET /models lists ${listed}; no answer named a model to compare (the requests failed)`, evidence);
  return pass(`GET /models lists ${listed}, and the answers name ${[...new Set(answered)].join(', ')}`, evidence);
}
