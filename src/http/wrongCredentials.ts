import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from './appDeps.js';
import { AuthLimiter, type LimiterReport } from './authLimiter.js';
import { messagePage } from './htmlPage.js';
import { wantsHtml } from './prefersHtml.js';
import { sendPage } from './sendPage.js';

/**
 * Failed credentials (wrong bearer token, wrong login) allowed per client address per minute;
 * beyond, 429 until they refill. A person mistyping the token needs a few; a guesser got
 * 3,703 a second before.
 */
export const AUTH_FAILURES_PER_MINUTE = 10;

/**
 * Failed credentials allowed for all client addresses together per minute: rotating addresses
 * (or X-Forwarded-For through a trusted proxy) got 10,215 answers a second against the
 * per-address bucket alone. Ten people mistyping at once stay under it.
 */
export const AUTH_FAILURES_PER_MINUTE_ALL = 100;

export type CredentialMethod = 'bearer' | 'login';

/** What the bearer check and the login form do with a wrong token; one limiter for both. */
export interface WrongCredentials {
  /** A wrong token: counted, and logged at most once a minute. */
  failed(req: FastifyRequest, method: CredentialMethod): void;
  /** For a wrong token: 429 when this address, or all of them together, have used up their failures, else null. */
  throttle(req: FastifyRequest, reply: FastifyReply, method: CredentialMethod): FastifyReply | null;
}

export function wrongCredentials(deps: Pick<AppDeps, 'logger' | 'metrics'>, now: () => number): WrongCredentials {
  const limiter = new AuthLimiter({ perMinute: AUTH_FAILURES_PER_MINUTE, globalPerMinute: AUTH_FAILURES_PER_MINUTE_ALL });
  const logLimiter = (report: LimiterReport | null) => {
    if (report)
      deps.logger.warn(
        { ip: report.address, failures: report.failures, refused: report.refused, addresses: report.addresses },
        'wrong credentials (one line a minute at most; failures and 429s since the last line, from this many addresses, the newest being ip)',
      );
  };
  return {
    failed(req, method) {
      deps.metrics?.authFailures.inc({ method });
      logLimiter(limiter.fail(req.ip, now()));
    },
    throttle(req, reply, method) {
      const wait = limiter.retryAfterSeconds(req.ip, now());
      if (wait === 0) return null;
      deps.metrics?.authThrottled.inc({ method });
      logLimiter(limiter.refuse(req.ip, now()));
      reply.header('retry-after', String(wait));
      const message = `too many wrong tokens (${AUTH_FAILURES_PER_MINUTE} a minute from one address, ${AUTH_FAILURES_PER_MINUTE_ALL} from all); try again in ${wait} s`;
      if (wantsHtml(req)) return sendPage(reply, 429, messagePage('429: too many attempts', message));
      return reply.status(429).send({ error: { code: 'TOO_MANY_AUTH_FAILURES', message } });
    },
  };
}
