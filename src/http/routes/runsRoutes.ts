import type { FastifyPluginAsync } from 'fastify';
import { SAMPLE_VERDICTS, type SampleVerdict } from '../../probe/probeTypes.js';
import type { RunFilter } from '../../state/runHistory.js';
import type { AppDeps } from '../appDeps.js';
import { messagePage } from '../htmlPage.js';
import { wantsHtml } from '../prefersHtml.js';
import { renderRun } from '../renderRun.js';
import { renderRuns } from '../renderRuns.js';
import type { RouteAuth } from '../routeAuth.js';
import { runListItem, runView } from '../runView.js';
import { sendPage } from '../sendPage.js';

const FORMAT = { type: 'string', enum: ['html', 'json'] } as const;

/** GET /runs (the history, filtered) and GET /runs/:id (one run with its samples' text). */
export const runsRoutes: FastifyPluginAsync<Pick<AppDeps, 'service' | 'history'>> = async (app, { service, history }) => {
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
      await history.storedIndexed();
      const runs = history.list(filter);
      if (wantsHtml(req)) return sendPage(reply, 200, renderRuns(service.currentConfig, runs, filter, Date.now()));
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
      const run = await history.get(req.params.id);
      if (!run) {
        const message = `no run with id "${req.params.id}" in history`;
        return html
          ? sendPage(reply, 404, messagePage('Unknown run', message))
          : reply.status(404).send({ error: { code: 'UNKNOWN_RUN', message } });
      }
      return html ? sendPage(reply, 200, renderRun(run, Date.now(), service.comparison(run.target, run.probe))) : runView(run, true);
    },
  );
};
