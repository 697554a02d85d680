import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { call, check, runCases, serveDaemon } from './shared.js';

/**
 * Issue 38, item 4 (routes as Fastify plugins), as fault cases (`npm run bench -- faults`): a hook
 * added inside a plugin applies to that plugin only, so a route family that slipped out from
 * under the root's guard would answer where it must refuse. Every route family is asked from
 * outside, with a wrong Host, without the token, from another origin, by a percent-encoded path,
 * and with bad input (the root's error handler and serializer), against one daemon with a token
 * and metricsAuth as a child process, the simulator in-process; a few seconds.
 */

const TOKEN = 'http38-bench-token-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };

/** One route of each family, as method and path; POSTs carry an empty JSON body. */
const FAMILIES: ReadonlyArray<[method: string, path: string]> = [
  ['GET', '/'],
  ['GET', '/-/login'],
  ['POST', '/-/logout'],
  ['GET', '/metrics'],
  ['GET', '/-/healthy'],
  ['GET', '/-/ready'],
  ['POST', '/-/reload'],
  ['GET', '/probe?target=healthy&probe=p'],
  ['POST', '/probe?target=healthy&probe=p'],
  ['GET', '/runs'],
  ['GET', '/runs/none'],
];

/** method path → status, for the routes whose status is not `expected`. */
function mismatches(answers: Array<[string, string, number]>, expected: (method: string, path: string) => number): string[] {
  return answers.filter(([m, p, s]) => s !== expected(m, p)).map(([m, p, s]) => `${m} ${p} ${s} (want ${expected(m, p)})`);
}

export async function http38Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const port = await freePort();
  const simPort = await freePort();
  const configPath = join(root, 'http38.yaml');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, authToken: ${TOKEN}, metricsAuth: true }
simulator: { enabled: true, host: 127.0.0.1, port: ${simPort}, tokensPerSecond: 0 }
targets:
  - { name: healthy, baseUrl: "http://127.0.0.1:${simPort}/v1", model: healthy, probes: [p] }
probes:
  - { name: p, prompt: "Write a short article about harbours.", maxTokens: 200 }
`,
  );
  const daemon = await serveDaemon(configPath, port);
  const ask = async (headers: Record<string, string>) => {
    const out: Array<[string, string, number]> = [];
    for (const [method, path] of FAMILIES) {
      const post = method === 'POST';
      const res = await call(`${daemon.url}${path}`, {
        method,
        headers: { ...(post ? JSON_TYPE : {}), ...headers },
        ...(post ? { body: '{}' } : {}),
      });
      out.push([method, path, res.status]);
    }
    return out;
  };
  try {
    await runCases(
      [
        [
          'http38: a name the daemon does not answer to, on every route family (DNS rebinding)',
          async () => {
            const answers = await ask({ ...BEARER, host: `rebound.example:${port}` });
            const wrong = mismatches(answers, () => 421);
            check(wrong.length === 0, wrong.join(', '));
            return `${answers.length} routes, every one 421`;
          },
        ],
        [
          'http38: no token on every route family (metricsAuth on; health, readiness and the login form stay open)',
          async () => {
            const open = new Set(['/-/healthy', '/-/ready', '/-/login', '/-/logout']);
            const answers = await ask({});
            // the logout form changes nothing without a session: it needs no token, only our origin
            const wrong = mismatches(answers, (_m, p) => (open.has(p) ? (p === '/-/logout' ? 303 : 200) : 401));
            check(wrong.length === 0, wrong.join(', '));
            return `${answers.filter(([, , s]) => s === 401).length} routes 401, ${answers.filter(([, , s]) => s !== 401).length} open`;
          },
        ],
        [
          'http38: a POST of another origin with the right token, on every route that changes state',
          async () => {
            const answers = (await ask({ ...BEARER, origin: 'https://evil.example' })).filter(
              ([m, p]) => m === 'POST' || p.startsWith('/probe'),
            );
            const wrong = mismatches(answers, () => 403);
            check(wrong.length === 0, wrong.join(', '));
            const runs = JSON.parse((await call(`${daemon.url}/runs`, { headers: BEARER })).body) as { runs: unknown[] };
            check(runs.runs.length === 0, `${runs.runs.length} runs started`);
            return `${answers.length} routes 403, no run`;
          },
        ],
        [
          'http38: percent-encoded paths get the guard of the route they name',
          async () => {
            const paths = ['/%70robe?target=healthy&probe=p', '/%6Detrics', '/run%73', '/runs/%6Eone'];
            const statuses = await Promise.all(paths.map(async (p) => `${p} ${(await call(`${daemon.url}${p}`)).status}`));
            check(
              statuses.every((s) => s.endsWith(' 401')),
              statuses.join(', '),
            );
            return statuses.join(', ');
          },
        ],
        [
          "http38: bad input inside a plugin gets the root's error handler (JSON with a code)",
          async () => {
            const tries: Array<[string, string, string]> = [
              ['GET', '/runs?limit=0', 'BAD_REQUEST'],
              ['GET', '/runs?verdict=bogus', 'BAD_REQUEST'],
              ['POST', '/probe', 'FST_ERR_CTP_INVALID_JSON_BODY'],
            ];
            const got: string[] = [];
            for (const [method, path, code] of tries) {
              const post = method === 'POST';
              const res = await call(`${daemon.url}${path}`, {
                method,
                headers: { ...BEARER, ...(post ? JSON_TYPE : {}) },
                ...(post ? { body: '{bad' } : {}),
              });
              const answer = (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
              check(res.status === 400 && answer === code, `${method} ${path}: ${res.status} ${res.body.slice(0, 200)}`);
              got.push(`${method} ${path} 400 ${answer}`);
            }
            return got.join(', ');
          },
        ],
        [
          'http38: wrong tokens count the same through the bearer check (root hook) and the login form (a plugin)',
          async () => {
            const statuses: number[] = [];
            for (let i = 0; i < 10; i++)
              statuses.push((await call(`${daemon.url}/runs`, { headers: { authorization: `Bearer wrong-${i}` } })).status);
            const login = await call(`${daemon.url}/-/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'token=wrong-login',
            });
            check(statuses.every((s) => s === 401) && login.status === 429, `bearer ${statuses.join(' ')}, then login ${login.status}`);
            const right = await call(`${daemon.url}/runs`, { headers: BEARER });
            check(right.status === 200, `the right token got ${right.status}`);
            return '10 wrong bearer tokens 401, then a wrong login 429; the right token still 200';
          },
        ],
      ],
      results,
    );
  } finally {
    await stopChild(daemon.child);
  }
}
