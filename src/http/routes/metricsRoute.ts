import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { sharedRendering } from '../renderMetrics.js';
import type { RouteAuth } from '../routeAuth.js';

/** GET /metrics: the registry's exposition, behind the token only with server.metricsAuth. */
export const metricsRoute: FastifyPluginAsync<Pick<AppDeps, 'registry'>> = async (app, { registry }) => {
  const exposition = sharedRendering(registry);
  app.get('/metrics', { config: { auth: 'metrics' } satisfies RouteAuth }, async (_req, reply) => {
    reply.type(registry.contentType);
    return exposition();
  });
};
