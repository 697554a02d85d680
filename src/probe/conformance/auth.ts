import type { HttpExchange } from '../../client/httpExchange.js';
import { CHAT_PROMPT, CREDENTIAL_HEADER, answerProblem, ask, type CheckContext } from './checkContext.js';
import { fail, pass, short, skip, type CheckVerdict } from './checkTypes.js';

/** The wrong key sent: a fixed string, never derived from the real one. */
export const WRONG_KEY = 'coherency-exporter-conformance-wrong-key';
/** Tokens a request that should be refused may cost when it is not. */
export const AUTH_MAX_TOKENS = 16;

/** The headers without any credential. */
function withoutKey(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADER.test(name)));
}

/** The headers with every credential replaced by the wrong key. */
function withWrongKey(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) =>
      !CREDENTIAL_HEADER.test(name) ? [name, value] : [name, name.toLowerCase() === 'authorization' ? `Bearer ${WRONG_KEY}` : WRONG_KEY],
    ),
  );
}

/**
 * auth: when the target has a key, the same request without it, and with a wrong one, is
 * refused with 401 or 403 (an endpoint, or a proxy in front of it, that answers without a key
 * is open to anyone who finds it). Only statuses are kept: no key, right or wrong, reaches the
 * evidence.
 */
export async function checkAuth(ctx: CheckContext): Promise<CheckVerdict> {
  if (!ctx.hasKey) return skip('no_api_key', 'the target sends no key, so there is no refusal to check');
  const body = ctx.apiBody(ask(CHAT_PROMPT), false, {}, AUTH_MAX_TOKENS);
  const none = await ctx.send({ path: ctx.path, body, headers: withoutKey });
  const wrong = await ctx.send({ path: ctx.path, body, headers: withWrongKey });
  const evidence = { 'status without a key': none.status, 'status with a wrong key': wrong.status };
  const judge = (x: HttpExchange, what: string, accepted: 'accepted_without_key' | 'accepted_wrong_key'): CheckVerdict | null => {
    if (x.status === 401 || x.status === 403) return null;
    if (x.status === null) return answerProblem(x, `a request ${what}`);
    if (x.status >= 200 && x.status < 300)
      return fail(accepted, `a request ${what} was answered with HTTP ${x.status}: the endpoint does not check its key`, evidence);
    return fail(
      'unexpected_status',
      `a request ${what} was answered with HTTP ${x.status}, not 401 or 403: ${short(x.body, 100)}`,
      evidence,
    );
  };
  const verdict = judge(none, 'without a key', 'accepted_without_key') ?? judge(wrong, 'with a wrong key', 'accepted_wrong_key');
  if (verdict) return { ...verdict, evidence: { ...evidence, ...verdict.evidence } };
  return pass(`refused without a key (HTTP ${none.status}) and with a wrong one (HTTP ${wrong.status})`, evidence);
}
