import { BlockList, isIP } from 'node:net';
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Metrics } from '../metrics/createMetrics.js';
import { SAMPLE_VERDICTS, type SampleVerdict } from '../probe/probeTypes.js';
import { ProbeLookupError, type ProbeService } from '../scheduler/probeService.js';
import type { RunFilter, RunHistory } from '../state/runHistory.js';
import { hostAllowed, hostName, hostRule, type HostRule } from './allowedHosts.js';
import { AuthLimiter, type LimiterReport } from './authLimiter.js';
import { LogGate, loggedUrl } from './logGate.js';
import { bearerMatches, tokenMatches } from './bearerAuth.js';
import { crossOriginRefusal } from './browserBoundary.js';
import { CsrfTokens } from './csrfToken.js';
import { messagePage, PAGE_HEADERS } from './htmlPage.js';
import { toJson } from './jsonReply.js';
import { prefersHtml } from './prefersHtml.js';
import { renderIndex } from './renderIndex.js';
import { renderLogin, safeNext } from './renderLogin.js';
import { sharedRendering } from './renderMetrics.js';
import { renderRun } from './renderRun.js';
import { renderRuns } from './renderRuns.js';
import { renderProbeGet } from './renderProbeGet.js';
import { curlExample, runRefusal } from './runRequest.js';
import { runListItem, runView } from './runView.js';
import { clearedSessionCookie, cookieValue, SESSION_COOKIE, SessionStore, sessionCookie } from './sessions.js';

export interface AppDeps {
  service: ProbeService;
  registry: Registry;
  history: RunHistory;
  logger: Logger;
  version: string;
  /** True once schedules are applied and the daemon serves real figures. */
  isReady: () => boolean;
  /** When a pair's next scheduled run starts (ms since the epoch); null when none is scheduled. */
  nextRun?: (target: string, probe: string) => number | null;
  /** Re-reads the config (POST /-/reload); absent when the config did not come from a file. */
  reload?: () => Promise<{ ok: true } | { ok: false; errors: string[] }>;
  /** Host names the daemon answers to when server.allowedHosts is not set (defaultHostNames); default localhost only. */
  hostNames?: readonly string[];
  /** The address the daemon listens on: always one of its names, list or not (the healthcheck command asks it). */
  listenHost?: string;
  /** Where failed and throttled credentials are counted; absent in tests that do not look. */
  metrics?: Pick<Metrics, 'authFailures' | 'authThrottled'>;
  /** Clock of sessions and the login limiter; default Date.now. */
  now?: () => number;
}

/**
 * Per-route policy. `auth`: behind the token when one is set (always), or only with metricsAuth.
 * `boundary`: the route starts work or changes state, so a browser may send it only from the
 * daemon's own origin ('state'); 'run' also refuses a GET fetched as an embedded resource.
 */
interface RouteAuth {
  auth?: 'always' | 'metrics';
  boundary?: 'state' | 'run';
}

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

const STATUS_BY_CODE = { UNKNOWN_TARGET: 404, UNKNOWN_PROBE: 404, PROBE_NOT_ON_TARGET: 404, ALREADY_RUNNING: 409 } as const;

/** Parameters of /probe, in the query string (GET, POST) or the body (POST: JSON, or the page's form with its csrf field). */
interface ProbeParams {
  target?: string;
  probe?: string;
  csrf?: string;
}
const NAME = { type: 'string', minLength: 1, maxLength: 256 } as const;
const FORMAT = { type: 'string', enum: ['html', 'json'] } as const;
/** Form bodies are small: a target and a probe name, or a token. */
const FORM_BODY_LIMIT = 8192;

/** Whether a request wants a page: ?format=html|json, else its Accept header. */
function wantsHtml(req: FastifyRequest): boolean {
  const format = (req.query as { format?: unknown } | undefined)?.format;
  return prefersHtml(req.headers.accept, typeof format === 'string' ? format : undefined);
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).headers(PAGE_HEADERS).send(html);
}

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
  let manualInFlight = 0;
  const exposition = sharedRendering(deps.registry);
  const sessions = new SessionStore();
  const csrf = new CsrfTokens();
  const sessionOf = (req: FastifyRequest) => cookieValue(req.headers.cookie, SESSION_COOKIE);
  const limiter = new AuthLimiter({ perMinute: AUTH_FAILURES_PER_MINUTE, globalPerMinute: AUTH_FAILURES_PER_MINUTE_ALL });
  const logLimiter = (report: LimiterReport | null) => {
    if (report)
      deps.logger.warn(
        { ip: report.address, failures: report.failures, refused: report.refused, addresses: report.addresses },
        'wrong credentials (one line a minute at most; failures and 429s since the last line, from this many addresses, the newest being ip)',
      );
  };
  /** A wrong token: counted, and logged at most once a minute. */
  const failed = (req: FastifyRequest, method: 'bearer' | 'login') => {
    deps.metrics?.authFailures.inc({ method });
    logLimiter(limiter.fail(req.ip, now()));
  };
  /** For a wrong token: 429 when this address, or all of them together, have used up their failures, else null. */
  const throttle = (req: FastifyRequest, reply: FastifyReply, method: 'bearer' | 'login') => {
    const wait = limiter.retryAfterSeconds(req.ip, now());
    if (wait === 0) return null;
    deps.metrics?.authThrottled.inc({ method });
    logLimiter(limiter.refuse(req.ip, now()));
    reply.header('retry-after', String(wait));
    const message = `too many wrong tokens (${AUTH_FAILURES_PER_MINUTE} a minute from one address, ${AUTH_FAILURES_PER_MINUTE_ALL} from all); try again in ${wait} s`;
    if (wantsHtml(req)) return sendPage(reply, 429, messagePage('429: too many attempts', message));
    return reply.status(429).send({ error: { code: 'TOO_MANY_AUTH_FAILURES', message } });
  };

  // Every JSON answer goes through here: times and rates keep 6 significant digits, not float noise.
  app.setReplySerializer((payload) => toJson(payload));
  // The pages' forms (run now, log in) post application/x-www-form-urlencoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Every route: the Host header must be one of the daemon's names (DNS rebinding: a page on a
  // name re-pointed at this address is same-origin to the browser, and only Host shows it).
  // Then, on routes that start work or change state, a browser may send only from the daemon's
  // own origin (browserBoundary.ts), token or not.
  // With a token set, everything that runs probes, shows output or changes state needs it;
  // /metrics too when metricsAuth is on. Health and readiness stay open for the kubelet,
  // which cannot send a token from a Secret. The decision reads the matched route's config,
  // never the raw URL: the router decodes %XX, so "/%70robe" is /probe.
  // A browser has no way to send the header from a link or a form: it logs in once
  // (POST /-/login) and sends the session cookie instead. A browser asking for a page
  // without either gets the login form. Wrong tokens are limited per client address.
  app.addHook('onRequest', async (req, reply) => {
    // The Host the client sent must pass, whoever sent it: X-Forwarded-Host (req.host when the
    // peer is in server.trustProxy) is checked as well, never instead. Before, a rebound page on a
    // browser whose own address trustProxy covered passed with X-Forwarded-Host: localhost.
    const badHost = [req.headers.host, req.host].find((h) => !hostAllowed(h, allowed()));
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
    const { authToken, metricsAuth } = server();
    if (!authToken) return;
    const guard = route.auth;
    if (!guard || (guard === 'metrics' && !metricsAuth)) return;
    if (req.headers.authorization !== undefined) {
      // The right token first: the limiter never refuses it (authLimiter.ts says why that is safe).
      if (bearerMatches(req.headers.authorization, authToken)) return;
      const refused = throttle(req, reply, 'bearer');
      if (refused) return refused;
      failed(req, 'bearer');
    } else if (sessions.valid(req.headers.cookie, authToken, now())) {
      return;
    }
    reply.header('www-authenticate', 'Bearer realm="coherency-exporter"');
    if (wantsHtml(req)) return sendPage(reply, 401, renderLogin(req.method === 'GET' ? req.url : '/', false));
    return reply
      .status(401)
      .send({ error: { code: 'UNAUTHORIZED', message: 'this endpoint needs Authorization: Bearer <server.authToken>' } });
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      const held = requestLog.pass(`error ${req.routeOptions.url ?? '(no route)'}`, now());
      if (held !== null) deps.logger.error({ err, ...(held > 0 ? { heldBack: held } : {}) }, 'request failed');
    }
    void reply.status(status).send({ error: { code: err.validation ? 'BAD_REQUEST' : (err.code ?? 'INTERNAL'), message: err.message } });
  });

  app.get('/', { config: { auth: 'always' } satisfies RouteAuth }, async (req, reply) => {
    const page = renderIndex(deps.service.currentConfig, deps.version, {
      recentRuns: (target, probe, n) => deps.history.list({ target, probe, limit: n }),
      running: (target, probe) => deps.service.isRunning(target, probe),
      nextRun: (target, probe) => deps.nextRun?.(target, probe) ?? null,
      nowMs: Date.now(),
      session: server().authToken !== null,
      comparison: (target, probe) => deps.service.comparison(target, probe),
      csrf: csrf.token(sessionOf(req)),
    });
    return sendPage(reply, 200, page);
  });

  app.get<{ Querystring: { next?: string } }>('/-/login', async (req, reply) =>
    sendPage(reply, 200, renderLogin(safeNext(req.query.next), false)),
  );

  // The token comes in the form body only: never in a URL, and /-/ requests are not logged.
  app.post<{ Body: { token?: string; next?: string } | undefined }>('/-/login', async (req, reply) => {
    const body = req.body && typeof req.body === 'object' ? req.body : {};
    const next = safeNext(body.next);
    const { authToken } = server();
    if (!authToken) return reply.redirect(next, 303);
    if (typeof body.token !== 'string' || !tokenMatches(body.token, authToken)) {
      const refused = throttle(req, reply, 'login');
      if (refused) return refused;
      failed(req, 'login');
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

  app.get('/metrics', { config: { auth: 'metrics' } satisfies RouteAuth }, async (_req, reply) => {
    reply.type(deps.registry.contentType);
    return exposition();
  });

  app.get('/-/healthy', async () => 'OK\n');
  app.get('/-/ready', async (_req, reply) => {
    if (deps.isReady()) return 'Ready\n';
    return reply.status(503).send('Not ready\n');
  });

  app.post('/-/reload', { config: { auth: 'always', boundary: 'state' } satisfies RouteAuth }, async (_req, reply) => {
    if (!deps.reload) {
      return reply
        .status(400)
        .send({ error: { code: 'NO_CONFIG_FILE', message: 'the config came from the environment, not a file: nothing to reload' } });
    }
    const result = await deps.reload();
    if (result.ok) return { status: 'reloaded' };
    return reply
      .status(400)
      .send({ error: { code: 'INVALID_CONFIG', message: 'config not reloaded: the running config stays', errors: result.errors } });
  });

  // A run costs tokens, so it starts only on a request no web page can send by itself
  // (runRequest.ts): the bearer token, a JSON POST, or the index page's form with its CSRF
  // token. The request names a configured target and probe, nothing else: no URL, host or
  // request field of it reaches the target.
  const runProbeRoute = async (
    req: FastifyRequest<{ Querystring: ProbeParams & { format?: string }; Body?: ProbeParams }>,
    reply: FastifyReply,
  ) => {
    const html = wantsHtml(req);
    reply.header('vary', 'Accept');
    const refuse = (status: number, code: string, message: string) =>
      html
        ? sendPage(reply, status, messagePage(`${status}: could not run the probe`, message))
        : reply.status(status).send({ error: { code, message } });
    const body: ProbeParams = req.body && typeof req.body === 'object' ? req.body : {};
    const names: Record<'target' | 'probe', string> = { target: '', probe: '' };
    for (const key of ['target', 'probe'] as const) {
      const inQuery = req.query[key];
      const inBody = body[key];
      if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
        return refuse(400, 'BAD_REQUEST', `${key} is "${inQuery}" in the query string but "${inBody}" in the body`);
      }
      const value = inQuery ?? inBody;
      if (typeof value !== 'string' || value === '') {
        return refuse(400, 'BAD_REQUEST', `missing parameter ${key}: give target and probe in the query string or the body`);
      }
      names[key] = value;
    }
    const { authToken } = server();
    const refusal = runRefusal({
      method: req.method,
      contentType: req.headers['content-type'],
      bearer: authToken !== null && bearerMatches(req.headers.authorization, authToken),
      csrf: csrf.valid(body.csrf, sessionOf(req)),
    });
    if (refusal) {
      // A GET names what it would run (unknown names get their 404 first), and says how to start it.
      try {
        deps.service.resolve(names.target, names.probe);
      } catch (err) {
        if (err instanceof ProbeLookupError) return refuse(STATUS_BY_CODE[err.code], err.code, err.message);
        throw err;
      }
      const origin = `${req.protocol}://${req.host}`;
      const curl = curlExample(origin, names.target, names.probe);
      if (refusal.status === 405) reply.header('allow', 'POST');
      if (html && refusal.status === 405) {
        return sendPage(reply, 405, renderProbeGet(names.target, names.probe, curl, csrf.token(sessionOf(req))));
      }
      if (html) return refuse(refusal.status, refusal.code, refusal.message);
      return reply.status(refusal.status).send({ error: { code: refusal.code, message: refusal.message, curl } });
    }
    const maxManual = server().maxConcurrentManualRuns;
    if (manualInFlight >= maxManual) {
      return refuse(429, 'TOO_MANY_RUNS', `${manualInFlight} manual runs are in flight (limit ${maxManual}); try again later`);
    }
    let running;
    try {
      running = deps.service.run(names.target, names.probe, 'manual');
    } catch (err) {
      if (err instanceof ProbeLookupError) return refuse(STATUS_BY_CODE[err.code], err.code, err.message);
      throw err;
    }
    manualInFlight++;
    let run;
    try {
      run = await running;
    } finally {
      manualInFlight--;
    }
    // A browser goes on to the run's page (303: the next request is a GET).
    if (html) return reply.redirect(`/runs/${encodeURIComponent(run.id)}`, 303);
    return runView(run);
  };
  const probeQuery = { type: 'object', properties: { target: NAME, probe: NAME, format: FORMAT } } as const;
  app.get(
    '/probe',
    { config: { auth: 'always', boundary: 'run' } satisfies RouteAuth, schema: { querystring: probeQuery } },
    runProbeRoute,
  );
  app.post(
    '/probe',
    {
      config: { auth: 'always', boundary: 'run' } satisfies RouteAuth,
      // A body of another type (text/plain, none) is refused before the body schema would call it malformed.
      preValidation: async (req, reply) => {
        const { authToken } = server();
        const bearer = authToken !== null && bearerMatches(req.headers.authorization, authToken);
        const refusal = runRefusal({ method: 'POST', contentType: req.headers['content-type'], bearer, csrf: true });
        if (refusal) return reply.status(refusal.status).send({ error: { code: refusal.code, message: refusal.message } });
      },
      schema: {
        querystring: probeQuery,
        body: { type: ['object', 'null'], properties: { target: NAME, probe: NAME, csrf: { type: 'string', maxLength: 100 } } },
      },
    },
    runProbeRoute,
  );

  // JSON for curl and scripts; a browser gets the table with its filter form, whose empty
  // choices ("any") arrive as empty values.
  app.get<{ Querystring: { target?: string; probe?: string; verdict?: SampleVerdict | ''; limit?: number; format?: 'html' | 'json' } }>(
    '/runs',
    {
      config: { auth: 'always' } satisfies RouteAuth,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            target: { type: 'string' },
            probe: { type: 'string' },
            verdict: { type: 'string', enum: [...SAMPLE_VERDICTS, ''] },
            limit: { type: 'integer', minimum: 1, maximum: 1000 },
            format: FORMAT,
          },
          additionalProperties: false,
        },
      },
    },
    async (req, reply) => {
      const { target, probe, verdict, limit } = req.query;
      const filter: RunFilter = {
        ...(target ? { target } : {}),
        ...(probe ? { probe } : {}),
        ...(verdict ? { verdict } : {}),
        ...(limit !== undefined ? { limit } : {}),
      };
      reply.header('vary', 'Accept');
      // stored runs are indexed after the server starts listening: list them all, not those read so far
      await deps.history.storedIndexed();
      const runs = deps.history.list(filter);
      if (wantsHtml(req)) return sendPage(reply, 200, renderRuns(deps.service.currentConfig, runs, filter, Date.now()));
      return { runs: runs.map(runListItem) };
    },
  );

  // JSON for curl and scripts; a browser (Accept: text/html) or ?format=html gets the page.
  app.get<{ Params: { id: string }; Querystring: { format?: 'html' | 'json' } }>(
    '/runs/:id',
    { config: { auth: 'always' } satisfies RouteAuth, schema: { querystring: { type: 'object', properties: { format: FORMAT } } } },
    async (req, reply) => {
      const html = wantsHtml(req);
      reply.header('vary', 'Accept');
      const run = await deps.history.get(req.params.id);
      if (!run) {
        const message = `no run with id "${req.params.id}" in history`;
        return html
          ? sendPage(reply, 404, messagePage('Unknown run', message))
          : reply.status(404).send({ error: { code: 'UNKNOWN_RUN', message } });
      }
      return html ? sendPage(reply, 200, renderRun(run, Date.now(), deps.service.comparison(run.target, run.probe))) : runView(run, true);
    },
  );

  return app;
}
export type App = ReturnType<typeof buildApp>;
