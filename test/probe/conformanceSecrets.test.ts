// A server that knows the target's key and echoes it to requests sent without it: the conformance
// auth check sends those, and its reason must not give the key out (issue 34).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, it } from 'node:test';
import { closeHttpDispatchers } from '../../src/client/httpExchange.js';
import { outcomeOf } from '../../src/probe/probeTypes.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { conformanceDeps, conformanceProbe } from '../helpers/conformanceSetup.js';
import { testTarget } from '../helpers/testConfig.js';

const KEY = 'sk-authEcho0123456789abcdefGHIJ';
/** Another target's key on the same server, which it echoes too. */
const OTHER = 'sk-otherTarget9876543210zyxWVU';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: `you should have sent ${KEY.toLowerCase()} or ${OTHER.slice(0, 20)}, not ${String(req.headers.authorization)}`,
      }),
    );
  });
});
let base = '';
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});
after(async () => {
  await new Promise((r) => server.close(r));
  await closeHttpDispatchers();
});

it('the auth check redacts the target key from answers to requests sent without it', async () => {
  const probe = conformanceProbe({ name: 'c', maxTokens: 100, conformance: { checks: ['auth'] } });
  const deps = conformanceDeps({ AUTH_KEY: KEY });
  const run = await runProbe(testTarget({ baseUrl: base, apiKeyEnv: 'AUTH_KEY' }), probe, deps);
  const auth = outcomeOf(run.samples[0]!, 'conformance')!.checks.find((c) => c.check === 'auth')!;
  assert.equal(auth.reason, 'unexpected_status');
  const text = JSON.stringify(run).toLowerCase();
  for (let i = 0; i + 8 <= KEY.length; i++) assert.ok(!text.includes(KEY.slice(i, i + 8).toLowerCase()), text.slice(0, 2000));
  assert.match(JSON.stringify(auth), /\[redacted\]/);
});

it("the configuration's other secrets (deps.secrets) are redacted from the conformance answers too", async () => {
  const probe = conformanceProbe({ name: 'c', maxTokens: 100, conformance: { checks: ['auth'] } });
  const deps = { ...conformanceDeps({ AUTH_KEY: KEY }), secrets: async () => [OTHER] };
  const run = await runProbe(testTarget({ baseUrl: base, apiKeyEnv: 'AUTH_KEY' }), probe, deps);
  const text = JSON.stringify(run).toLowerCase();
  for (const secret of [KEY, OTHER])
    for (let i = 0; i + 8 <= secret.length; i++) assert.ok(!text.includes(secret.slice(i, i + 8).toLowerCase()), text.slice(0, 2000));
});
