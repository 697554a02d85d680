import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { SAMPLE_VERDICTS, type SampleVerdict } from '../probe/probeTypes.js';
import { ProbeLookupError, type ProbeService } from '../scheduler/probeService.js';
import type { RunHistory } from '../state/runHistory.js';
import { bearerMatches } from './bearerAuth.js';
import { renderIndex } from './renderIndex.js';
import { runListItem, runView } from './runView.js';

export interface AppDeps {
  service: ProbeService;
  registry: Registry;
  history: RunHistory;
  logger: Logger;
  version: string;
  /** True once schedules are applied and the daemon serves real figures. */
  isReady: () => boolean;
  /** Re-reads the config (POST /-/reload); absent when the config did not come from a file. */
  reload?: () => Promise<{ ok: true } | { ok: false; errors: string[] }>;
}

/** Per-route auth: always behind the token when one is set, or only with metricsAuth. */
interface RouteAuth {
  auth: 'always' | 'metrics';
}

const STATUS_BY_CODE = { UNKNOWN_TARGET: 404, UNKNOWN_PROBE: 404, PROBE_NOT_ON_TARGET: 404, ALREADY_RUNNING: 409 } as const;

/** The HTTP API. Never listens by itself: the daemon calls listen(), tests call inject(). */
export function buildApp(deps: AppDeps) {
    // Scrapes and health checks arrive every few seconds: keep them out of the log.
  const quiet = (url: string) => url.startsWith('/metrics') || url.startsWith('/-/');
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: (req) => quiet(req.url) }),
  });
  const server = () => deps.service.currentConfig.server;
  let manualInFlight = 0;

  // With a token set, everything that runs probes, shows output or changes state needs it;
  // /metrics too when metricsAuth is on. Health and readiness stay open for the kubelet,
  // which cannot send a token from a Secret. The decision reads the matched route's config,
  // never the raw URL: the router decodes %XX, so "/%70robe" is /probe.
  app.addHook('onRequest', async (req, reply) => {
    const { authToken, metricsAuth } = server();
    if (!authToken) return;
    const guard = (req.routeOptions.config as Partial<RouteAuth> | undefined)?.auth;
    if (!guard || (guard === 'metrics' && !metricsAuth)) return;
    if (bearerMatches(req.headers.authorization, authToken)) return;
    reply.header('www-authenticate', 'Bearer realm="coherency-exporter"');
    return reply.status(401).send({ error: { code: 'UNAUTHORIZED', message: 'this endpoint needs Authorization: Bearer <server.authToken>' } });
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; validation?: unknown }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) deps.logger.error({ err }, 'request failed');
    void reply.status(status).send({ error: { code: err.validation ? 'BAD_REQUEST' : (err.code ?? 'INTERNAL'), message: err.message } });
  });

  app.get('/', async (_req, reply) => {
    reply.type('text/html; charset=utf-8');
    return renderIndex(deps.service.currentConfig, deps.version);
  });

  app.get('/metrics', { config: { auth: 'metrics' } satisfies RouteAuth }, async (_req, reply) => {
    reply.type(deps.registry.contentType);
    return deps.registry.metrics();
  });

  app.get('/-/healthy', async () => 'OK\n');
  app.get('/-/ready', async (_req, reply) => {
    if (deps.isReady()) return 'Ready\n';
    return reply.status(503).send('Not ready\n');
  });

  app.post('/-/reload', { config: { auth: 'always' } satisfies RouteAuth }, async (_req, reply) => {
    if (!deps.reload) {
      return reply.status(400).send({ error: { code: 'NO_CONFIG_FILE', message: 'the config came from the environment, not a file: nothing to reload' } });
    }
    const result = await deps.reload();
    if (result.ok) return { status: 'reloaded' };
    return reply.status(400).send({ error: { code: 'INVALID_CONFIG', message: 'config not reloaded: the running config stays', errors: result.errors } });
  });

  app.get<{ Querystring: { target: string; probe: string } }>(
    '/probe',
    {
      config: { auth: 'always' } satisfies RouteAuth,
      schema: {
        querystring: {
          type: 'object',
          required: ['target', 'probe'],
          properties: { target: { type: 'string', minLength: 1 }, probe: { type: 'string', minLength: 1 } },
        },
      },
    },
    async (req, reply) => {
      const { target, probe } = req.query;
      const maxManual = server().maxConcurrentManualRuns;
      if (manualInFlight >= maxManual) {
        return reply.status(429).send({
          error: { code: 'TOO_MANY_RUNS', message: `${manualInFlight} manual runs are in flight (limit ${maxManual}); try again later` },
        });
      }
      let running;
      try {
        running = deps.service.run(target, probe, 'manual');
      } catch (err) {
        if (err instanceof ProbeLookupError) {
          return reply.status(STATUS_BY_CODE[err.code]).send({ error: { code: err.code, message: err.message } });
        }
        throw err;
      }
      manualInFlight++;
      try {
        return runView(await running);
      } finally {
        manualInFlight--;
      }
    },
  );

  app.get<{ Querystring: { target?: string; probe?: string; verdict?: SampleVerdict; limit?: number } }>(
    '/runs',
    {
      config: { auth: 'always' } satisfies RouteAuth,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            target: { type: 'string' },
            probe: { type: 'string' },
            verdict: { type: 'string', enum: [...SAMPLE_VERDICTS] },
            limit: { type: 'integer', minimum: 1, maximum: 1000 },
          },
          additionalProperties: false,
        },
      },
    },
    async (req) => ({ runs: deps.history.list(req.query).map(runListItem) }),
  );

  app.get<{ Params: { id: string } }>('/runs/:id', { config: { auth: 'always' } satisfies RouteAuth }, async (req, reply) => {
    const run = await deps.history.get(req.params.id);
    if (!run) return reply.status(404).send({ error: { code: 'UNKNOWN_RUN', message: `no run with id "${req.params.id}" in history` } });
    return runView(run, true);
  });

  return app;
}
export type App = ReturnType<typeof buildApp>;
