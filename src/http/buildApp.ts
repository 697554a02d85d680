import { BlockList, isIP } from 'node:net';
import Fastify, { LogController } from 'fastify';
import { hostRule, type HostRule } from './allowedHosts.js';
import type { AppDeps } from './appDeps.js';
import { CsrfTokens } from './csrfToken.js';
import { toJson } from './jsonReply.js';
import { LogGate, loggedUrl } from './logGate.js';
import { requestGuard } from './requestGuard.js';
import { healthRoutes } from './routes/healthRoutes.js';
import { indexRoute } from './routes/indexRoute.js';
import { loginRoutes } from './routes/loginRoutes.js';
import { metricsRoute } from './routes/metricsRoute.js';
import { probeRoutes } from './routes/probeRoutes.js';
import { reloadRoute } from './routes/reloadRoute.js';
import { runsRoutes } from './routes/runsRoutes.js';
import { SessionStore } from './sessions.js';
import { wrongCredentials } from './wrongCredentials.js';

export type { AppDeps } from './appDeps.js';
export { AUTH_FAILURES_PER_MINUTE, AUTH_FAILURES_PER_MINUTE_ALL } from './wrongCredentials.js';

/** An IPv4 address as Node reports it on a dual-stack socket ("::ffff:10.0.0.1") is matched as IPv4. */
const plainAddress = (a: string) => (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a);

function proxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const e of entries) {
    const [address = '', prefix] = e.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** `compute` of the value `key()` returns, recomputed only when that value is another object (a reload). */
function memo<K, V>(key: () => K, compute: (k: K) => V): () => V {
  let lastKey: K | undefined;
  let last: V | undefined;
  return () => {
    const k = key();
    if (last === undefined || k !== lastKey) {
      last = compute(k);
      lastKey = k;
    }
    return last;
  };
}

/** Form bodies are small: a target and a probe name, or a token. */
const FORM_BODY_LIMIT = 8192;

/** The HTTP API. Never listens by itself: the daemon calls listen(), tests call inject(). */
export function buildApp(deps: AppDeps) {
  // Fastify's two lines per request at info (1,366 lines in two minutes of the demo) give way to
  // one line per answered request: at debug, or at warn for a 4xx/5xx (someone should look). Scrapes
  // and health checks arrive every few seconds: they are logged only when they fail on our side (5xx).
  const quiet = (url: string) => url.startsWith('/metrics') || url.startsWith('/-/');
  const server = () => deps.service.currentConfig.server;
  const now = deps.now ?? Date.now;
  const trusted = memo(
    () => server().trustProxy,
    (list) => (list.length === 0 ? null : proxyList(list)),
  );
  const allowed = memo(
    () => server().allowedHosts,
    (list): HostRule => hostRule([...(list ?? deps.hostNames ?? ['localhost']), ...(deps.listenHost ? [deps.listenHost] : [])]),
  );
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true }),
    // read at each request, so a reload of server.trustProxy applies at once
    trustProxy: (address: string) => {
      const list = trusted();
      const a = plainAddress(address);
      return list?.check(a, isIP(a) === 6 ? 'ipv6' : 'ipv4') ?? false;
    },
  });
  // Any client can make 4xx answers as fast as it sends (a page of another site too, from an
  // <img> loop): their warn lines pass a gate of one line a minute per status and route, with
  // the count held back, and every URL is cut to LOGGED_URL_CHARS. With a handful of statuses
  // and a dozen routes that is a few lines a minute at most whatever the load (docs/security.md).
  const requestLog = new LogGate();
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    // A wrong token (401) or a throttled one (429 of the limiter) has its own line, at most one a
    // minute for all addresses: a warn line per guess would let a guesser fill the log again.
    const limited = status === 401 || (status === 429 && reply.getHeader('retry-after') !== undefined);
    const level = status >= 500 || (status >= 400 && !quiet(req.url) && !limited) ? 'warn' : quiet(req.url) ? null : 'debug';
    if (level === null) return;
    let held = 0;
    if (level === 'warn') {
      const pass = requestLog.pass(`${status} ${req.routeOptions.url ?? '(no route)'}`, now());
      if (pass === null) return;
      held = pass;
    }
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const url = loggedUrl(req.url);
    reply.log[level](
      { method: req.method, url, statusCode: status, responseTime: ms, ...(held > 0 ? { heldBack: held } : {}) },
      `${req.method.slice(0, 16)} ${url} ${status} (${ms} ms)${held > 0 ? `; ${held} more like it since the last line (one a minute per status and route)` : ''}`,
    );
  });
  const sessions = new SessionStore();
  const csrf = new CsrfTokens();
  const credentials = wrongCredentials(deps, now);

  // Every JSON answer goes through here: times and rates keep 6 significant digits, not float noise.
  app.setReplySerializer((payload) => toJson(payload));
  // The pages' forms (run now, log in) post application/x-www-form-urlencoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Every route: allowed Host, the browser boundary, then the token or a session (requestGuard.ts).
  app.addHook('onRequest', requestGuard({ server, allowed, sessions, credentials, now }));

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      const held = requestLog.pass(`error ${req.routeOptions.url ?? '(no route)'}`, now());
      if (held !== null) deps.logger.error({ err, ...(held > 0 ? { heldBack: held } : {}) }, 'request failed');
    }
    void reply.status(status).send({ error: { code: err.validation ? 'BAD_REQUEST' : (err.code ?? 'INTERNAL'), message: err.message } });
  });

  // Each route family is a plugin taking what it needs of deps. Plugins add routes only: the
  // hooks, error handler, parser and serializer above live on the root and apply to them all.
  void app.register(indexRoute, { ...deps, csrf });
  void app.register(loginRoutes, { ...deps, sessions, credentials, now });
  void app.register(metricsRoute, deps);
  void app.register(healthRoutes, deps);
  void app.register(reloadRoute, deps);
  void app.register(probeRoutes, { ...deps, csrf });
  void app.register(runsRoutes, deps);

  return app;
}
export type App = ReturnType<typeof buildApp>;
