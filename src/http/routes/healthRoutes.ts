import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../appDeps.js';

/** GET /-/healthy and /-/ready, open to all: the kubelet cannot send a token from a Secret. */
export const healthRoutes: FastifyPluginAsync<Pick<AppDeps, 'isReady'>> = async (app, { isReady }) => {
  app.get('/-/healthy', async () => 'OK\n');
  app.get('/-/ready', async (_req, reply) => {
    if (isReady()) return 'Ready\n';
    return reply.status(503).send('Not ready\n');
  });
};
