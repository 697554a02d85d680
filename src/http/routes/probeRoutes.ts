import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ProbeLookupError } from '../../scheduler/probeService.js';
import type { AppDeps } from '../appDeps.js';
import { bearerMatches } from '../bearerAuth.js';
import type { CsrfTokens } from '../csrfToken.js';
import { messagePage } from '../htmlPage.js';
import { wantsHtml } from '../prefersHtml.js';
import { renderProbeGet } from '../renderProbeGet.js';
import type { RouteAuth } from '../routeAuth.js';
import { curlExample, runRefusal } from '../runRequest.js';
import { runView } from '../runView.js';
import { sendPage } from '../sendPage.js';
import { cookieValue, SESSION_COOKIE } from '../sessions.js';

export interface ProbeRoutesOptions extends Pick<AppDeps, 'service'> {
  /** The run forms' tokens; the same instance as the index page's, which hands them out. */
  csrf: CsrfTokens;
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
const PROBE_QUERY = { type: 'object', properties: { target: NAME, probe: NAME, format: FORMAT } } as const;

const sessionOf = (req: FastifyRequest) => cookieValue(req.headers.cookie, SESSION_COOKIE);

/**
 * GET and POST /probe: one manual run of a configured pair. A run costs tokens, so it starts
 * only on a request no web page can send by itself (runRequest.ts): the bearer token, a JSON
 * POST, or the index page's form with its CSRF token. The request names a configured target and
 * probe, nothing else: no URL, host or request field of it reaches the target. A GET names what
 * it would run and says how to start it.
 */
export const probeRoutes: FastifyPluginAsync<ProbeRoutesOptions> = async (app, { service, csrf }) => {
  const server = () => service.currentConfig.server;
  let manualInFlight = 0;
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
        service.resolve(names.target, names.probe);
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
      running = service.run(names.target, names.probe, 'manual');
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
  app.get(
    '/probe',
    { config: { auth: 'always', boundary: 'run' } satisfies RouteAuth, schema: { querystring: PROBE_QUERY } },
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
        querystring: PROBE_QUERY,
        body: { type: ['object', 'null'], properties: { target: NAME, probe: NAME, csrf: { type: 'string', maxLength: 100 } } },
      },
    },
    runProbeRoute,
  );
};
