import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { RouteAuth } from '../routeAuth.js';

/** POST /-/reload: re-reads the config file; an invalid one is refused and the running config stays. */
export const reloadRoute: FastifyPluginAsync<Pick<AppDeps, 'reload'>> = async (app, { reload }) => {
  app.post('/-/reload', { config: { auth: 'always', boundary: 'state' } satisfies RouteAuth }, async (_req, reply) => {
    if (!reload) {
      return reply
        .status(400)
        .send({ error: { code: 'NO_CONFIG_FILE', message: 'the config came from the environment, not a file: nothing to reload' } });
    }
    const result = await reload();
    if (result.ok) return { status: 'reloaded' };
    return reply
      .status(400)
      .send({ error: { code: 'INVALID_CONFIG', message: 'config not reloaded: the running config stays', errors: result.errors } });
  });
};
