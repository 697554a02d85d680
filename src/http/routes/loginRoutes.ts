import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { tokenMatches } from '../bearerAuth.js';
import { renderLogin, safeNext } from '../renderLogin.js';
import type { RouteAuth } from '../routeAuth.js';
import { sendPage } from '../sendPage.js';
import { clearedSessionCookie, type SessionStore, sessionCookie } from '../sessions.js';
import type { WrongCredentials } from '../wrongCredentials.js';

export interface LoginRoutesOptions extends Pick<AppDeps, 'service'> {
  /** The sessions the request guard accepts. */
  sessions: SessionStore;
  /** The limiter the bearer check uses too: wrong tokens count the same through either door. */
  credentials: WrongCredentials;
  now: () => number;
}

/** The login form (GET and POST /-/login) that trades the token for a session cookie, and POST /-/logout. */
export const loginRoutes: FastifyPluginAsync<LoginRoutesOptions> = async (app, { service, sessions, credentials, now }) => {
  app.get<{ Querystring: { next?: string } }>('/-/login', async (req, reply) =>
    sendPage(reply, 200, renderLogin(safeNext(req.query.next), false)),
  );

  // The token comes in the form body only: never in a URL, and /-/ requests are not logged.
  app.post<{ Body: { token?: string; next?: string } | undefined }>('/-/login', async (req, reply) => {
    const body = req.body && typeof req.body === 'object' ? req.body : {};
    const next = safeNext(body.next);
    const { authToken } = service.currentConfig.server;
    if (!authToken) return reply.redirect(next, 303);
    if (typeof body.token !== 'string' || !tokenMatches(body.token, authToken)) {
      const refused = credentials.throttle(req, reply, 'login');
      if (refused) return refused;
      credentials.failed(req, 'login');
      reply.header('www-authenticate', 'Bearer realm="coherency-exporter"');
      return sendPage(reply, 401, renderLogin(next, true));
    }
    // Secure when the browser reached us over HTTPS, directly or through a proxy of server.trustProxy
    reply.header('set-cookie', sessionCookie(sessions.create(authToken, now()), req.protocol === 'https'));
    return reply.redirect(next, 303);
  });

  // Ends the session for good (server-side), not only in this browser.
  app.post('/-/logout', { config: { boundary: 'state' } satisfies RouteAuth }, async (req, reply) => {
    sessions.revoke(req.headers.cookie);
    reply.header('set-cookie', clearedSessionCookie(req.protocol === 'https'));
    return reply.redirect('/', 303);
  });
};
