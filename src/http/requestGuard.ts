import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config/types.js';
import { hostAllowed, hostName, type HostRule } from './allowedHosts.js';
import { bearerMatches } from './bearerAuth.js';
import { crossOriginRefusal } from './browserBoundary.js';
import { messagePage } from './htmlPage.js';
import { wantsHtml } from './prefersHtml.js';
import { renderLogin } from './renderLogin.js';
import type { RouteAuth } from './routeAuth.js';
import { sendPage } from './sendPage.js';
import type { SessionStore } from './sessions.js';
import type { WrongCredentials } from './wrongCredentials.js';

export interface RequestGuardOptions {
  /** The running config's server section, read at each request so that a reload applies at once. */
  server: () => ServerConfig;
  /** The names the daemon answers to (server.allowedHosts, or its defaults). */
  allowed: () => HostRule;
  sessions: SessionStore;
  credentials: WrongCredentials;
  now: () => number;
}

/**
 * The onRequest hook of every route. The Host header must be one of the daemon's names (DNS
 * rebinding: a page on a name re-pointed at this address is same-origin to the browser, and only
 * Host shows it). Then, on routes that start work or change state, a browser may send only from
 * the daemon's own origin (browserBoundary.ts), token or not.
 * With a token set, everything that runs probes, shows output or changes state needs it;
 * /metrics too when metricsAuth is on. Health and readiness stay open for the kubelet,
 * which cannot send a token from a Secret. The decision reads the matched route's config,
 * never the raw URL: the router decodes %XX, so "/%70robe" is /probe.
 * A browser has no way to send the header from a link or a form: it logs in once
 * (POST /-/login) and sends the session cookie instead. A browser asking for a page
 * without either gets the login form. Wrong tokens are limited per client address.
 */
export function requestGuard(opts: RequestGuardOptions) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    // The Host the client sent must pass, whoever sent it: X-Forwarded-Host (req.host when the
    // peer is in server.trustProxy) is checked as well, never instead. Before, a rebound page on a
    // browser whose own address trustProxy covered passed with X-Forwarded-Host: localhost.
    const badHost = [req.headers.host, req.host].find((h) => !hostAllowed(h, opts.allowed()));
    if (badHost !== undefined) {
      const message = `this server does not answer to "${hostName(badHost).slice(0, 100)}" (server.allowedHosts lists the names it does; IP addresses always work)`;
      return reply.status(421).send({ error: { code: 'HOST_NOT_ALLOWED', message } });
    }
    const route = (req.routeOptions.config ?? {}) as RouteAuth;
    const boundary = route.boundary ?? (req.method === 'GET' || req.method === 'HEAD' ? undefined : 'state');
    if (boundary) {
      const why = crossOriginRefusal(
        req.headers,
        `${req.protocol}://${req.host}`,
        boundary === 'run' && (req.method === 'GET' || req.method === 'HEAD'),
      );
      if (why) {
        if (wantsHtml(req)) return sendPage(reply, 403, messagePage('403: refused', why));
        return reply.status(403).send({ error: { code: 'CROSS_ORIGIN', message: `refused: ${why}` } });
      }
    }
    const { authToken, metricsAuth } = opts.server();
    if (!authToken) return;
    const guard = route.auth;
    if (!guard || (guard === 'metrics' && !metricsAuth)) return;
    if (req.headers.authorization !== undefined) {
      // The right token first: the limiter never refuses it (authLimiter.ts says why that is safe).
      if (bearerMatches(req.headers.authorization, authToken)) return;
      const refused = opts.credentials.throttle(req, reply, 'bearer');
      if (refused) return refused;
      opts.credentials.failed(req, 'bearer');
    } else if (opts.sessions.valid(req.headers.cookie, authToken, opts.now())) {
      return;
    }
    reply.header('www-authenticate', 'Bearer realm="coherency-exporter"');
    if (wantsHtml(req)) return sendPage(reply, 401, renderLogin(req.method === 'GET' ? req.url : '/', false));
    return reply
      .status(401)
      .send({ error: { code: 'UNAUTHORIZED', message: 'this endpoint needs Authorization: Bearer <server.authToken>' } });
  };
}
