import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { CsrfTokens } from '../csrfToken.js';
import { renderIndex } from '../renderIndex.js';
import type { RouteAuth } from '../routeAuth.js';
import { sendPage } from '../sendPage.js';
import { cookieValue, SESSION_COOKIE } from '../sessions.js';

export interface IndexRouteOptions extends Pick<AppDeps, 'service' | 'history' | 'version' | 'nextRun'> {
  /** The run forms' tokens; the same instance as /probe's, which checks them. */
  csrf: CsrfTokens;
}

/** GET /: the pairs, their recent runs and next runs, with a run button each. */
export const indexRoute: FastifyPluginAsync<IndexRouteOptions> = async (app, { service, history, version, nextRun, csrf }) => {
  app.get('/', { config: { auth: 'always' } satisfies RouteAuth }, async (req, reply) => {
    const page = renderIndex(service.currentConfig, version, {
      recentRuns: (target, probe, n) => history.list({ target, probe, limit: n }),
      running: (target, probe) => service.isRunning(target, probe),
      nextRun: (target, probe) => nextRun?.(target, probe) ?? null,
      nowMs: Date.now(),
      session: service.currentConfig.server.authToken !== null,
      comparison: (target, probe) => service.comparison(target, probe),
      csrf: csrf.token(cookieValue(req.headers.cookie, SESSION_COOKIE)),
    });
    return sendPage(reply, 200, page);
  });
};
