import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/parseConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { startLoopback, type Loopback } from '../client/loopback.js';
import { requireTool, runCommand } from '../helpers/integrationProcess.js';

// The simulator upgraded mid-run to a release that collapses: the daemon sees the change, logs
// it field by field, counts it, replaces the info series and compares the runs before and after.
const open: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const x of open.reverse()) await x.close();
});

async function daemonFor(yaml: string, env: Record<string, string> = {}) {
  const parsed = parseConfig(yaml, { env });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('\n'));
  const log = captureLogger();
  const daemon: Daemon = await startDaemon({ config: parsed.config, configPath: null, logger: log.logger, env });
  open.push(daemon);
  return { daemon, log };
}

const metricLines = async (d: Daemon, name: string) =>
  (await (await fetch(`${d.url}/metrics`)).text()).split('\n').filter((l) => l.startsWith(`${name}{`));

test('a release that degrades: the change is logged, counted, shown on the index and run pages, and compared', async () => {
  // 3 runs of 2 samples by release 1, then release 2 answers with a sentence loop from token 150, 5 times faster
  const sim: Simulator = await startSimulator({
    tokensPerSecond: 1500,
    release: { after: 6, degradeTo: 'collapse-sentence@150', speedup: 5 },
  });
  open.push(sim);
  const { daemon, log } = await daemonFor(`
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets: [{ name: t, baseUrl: "${sim.url}", model: healthy }]
probes:
  - { name: p, prompt: "Write a long article about storage engines.", maxTokens: 900, minTokens: 0, samples: 2 }
`);
  const run = async () => {
    const res = await fetch(`${daemon.url}/probe?target=t&probe=p`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { id: string; verdict: string; fingerprint?: { hash: string; version: string | null } };
  };
  const first = await run();
  assert.equal(first.verdict, 'ok');
  assert.equal(first.fingerprint?.version, '1.0.0', 'read from GET /version');
  await run();
  const third = await run();
  assert.equal(third.fingerprint?.hash, first.fingerprint?.hash, 'the same build, the same hash');
  assert.deepEqual(await metricLines(daemon, 'coherency_target_changes_total'), ['coherency_target_changes_total{target="t"} 0']);
  assert.deepEqual(await metricLines(daemon, 'coherency_change_failed_ratio'), [], 'no comparison before a change');
  assert.equal((await (await fetch(`${daemon.url}/`)).text()).includes('since the change'), false);

  const fourth = await run();
  assert.equal(fourth.verdict, 'fail');
  assert.equal(fourth.fingerprint?.version, '2.0.0');
  assert.notEqual(fourth.fingerprint?.hash, first.fingerprint?.hash);
  assert.deepEqual(await metricLines(daemon, 'coherency_target_changes_total'), ['coherency_target_changes_total{target="t"} 1']);
  const info = await metricLines(daemon, 'coherency_target_info');
  assert.deepEqual(info, [
    'coherency_target_info{target="t",server="vllm",version="2.0.0",model_revision="/models/simulated-r2",model="healthy",served_model="healthy"} 1',
  ]);
  const failed = await metricLines(daemon, 'coherency_change_failed_ratio');
  assert.deepEqual(failed.sort(), [
    'coherency_change_failed_ratio{target="t",probe="p",period="after"} 1',
    'coherency_change_failed_ratio{target="t",probe="p",period="before"} 0',
  ]);
  assert.ok(
    (await metricLines(daemon, 'coherency_change_samples')).includes('coherency_change_samples{target="t",probe="p",period="before"} 6'),
  );
  // faster but broken: the tokens came faster after the change
  const itl = Object.fromEntries(
    (await metricLines(daemon, 'coherency_change_inter_token_latency_seconds')).map((l) => [
      /period="(\w+)"/.exec(l)?.[1],
      Number(l.split(' ')[1]),
    ]),
  );
  assert.ok(itl['after']! < 0.5 * itl['before']!, JSON.stringify(itl));

  const warn = log
    .text()
    .split('\n')
    .filter((l) => l.includes('"level":40') && l.includes('target t changed'));
  assert.equal(warn.length, 1, log.text());
  const line = JSON.parse(warn[0] as string) as { msg: string; changes: Array<{ field: string; before: unknown; after: unknown }> };
  assert.match(line.msg, /version 1\.0\.0 → 2\.0\.0/);
  assert.deepEqual(
    line.changes.map((c) => c.field),
    ['version', 'modelRevision', 'systemFingerprint', 'headers.server'],
  );

  const index = await (await fetch(`${daemon.url}/`)).text();
  assert.match(
    index,
    /since the change just now \(version 1\.0\.0 → 2\.0\.0[^)]*\): 2 of 2 samples failed, before 0 of 6; loops or stutter in 2 of 2, before 0 of 6;.*ITL −\d+%/,
  );
  const page = await (await fetch(`${daemon.url}/runs/${fourth.id}?format=html`)).text();
  assert.match(page, /Target fingerprint/);
  assert.ok(page.includes(fourth.fingerprint?.hash ?? '?'));
  assert.match(page, /2 of 2 samples failed, before 0 of 6/);

  await run();
  assert.deepEqual(await metricLines(daemon, 'coherency_target_changes_total'), ['coherency_target_changes_total{target="t"} 1'], 'once');

  // the new series pass promtool's lint (names, units, HELP, counters)
  const tool = requireTool('promtool');
  if (tool.skip === null) {
    const body = await (await fetch(`${daemon.url}/metrics`)).text();
    assert.ok(body.includes('coherency_change_inter_token_latency_seconds{'));
    const result = await runCommand(tool.path, ['check', 'metrics'], { input: body });
    assert.equal(`${result.stdout}${result.stderr}`, '', 'promtool check metrics printed problems');
  }
});

test('a target that redirects: neither the chat request nor any fingerprint read reaches the other host', async () => {
  const elsewhere: Loopback = await startLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"version":"9"}');
  });
  open.push(elsewhere);
  const paths: string[] = [];
  const redirecting: Loopback = await startLoopback((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    res.writeHead(307, { location: `${new URL(elsewhere.url).origin}${req.url}` });
    res.end();
  });
  open.push(redirecting);
  const { daemon } = await daemonFor(
    `
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets: [{ name: r, baseUrl: "${new URL(redirecting.url).origin}/v1", model: healthy, apiKeyEnv: KEY }]
probes:
  - { name: p, prompt: "Write about caches.", maxTokens: 50, minTokens: 0 }
`,
    { KEY: 'sk-never-elsewhere' },
  );
  const res = await fetch(`${daemon.url}/probe?target=r&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json()) as { verdict: string; fingerprint?: { unavailable: string[] } };
  assert.equal(body.verdict, 'error');
  assert.equal(elsewhere.requests.length, 0, 'the host the redirects point to got nothing');
  assert.ok(paths.includes('GET /v1/models') && paths.includes('GET /version'), paths.join(', '));
  assert.ok(body.fingerprint?.unavailable.includes('/models: HTTP 307 redirect not followed'), JSON.stringify(body.fingerprint));
  // the key went only to paths under baseUrl
  for (const r of redirecting.requests) {
    if (r.headers.authorization !== undefined) assert.equal(r.headers.authorization, 'Bearer sk-never-elsewhere');
  }
  assert.equal(redirecting.requests.filter((r) => r.headers.authorization !== undefined).length, 2, 'chat + /models');
});

test('a reload that points a target elsewhere starts its fingerprint afresh; one that removes it drops its series', async () => {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { loadConfig } = await import('../../src/config/loadConfig.js');
  const old = await startSimulator({ tokensPerSecond: 0, release: { after: 1 } });
  const other = await startSimulator({ tokensPerSecond: 0, release: { after: 1000 } });
  open.push(old, other);
  const dir = await mkdtemp(join(tmpdir(), 'coherency-change-reload-'));
  open.push({ close: () => rm(dir, { recursive: true, force: true }) });
  const path = join(dir, 'config.yaml');
  const configText = (url: string, extra = '') => `
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets:
  - { name: t, baseUrl: "${url}", model: healthy }
${extra}
probes:
  - { name: p, prompt: "Write about caches.", maxTokens: 300, minTokens: 0 }
`;
  await writeFile(path, configText(old.url, `  - { name: gone, baseUrl: "${other.url}", model: healthy }`));
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  const daemon = await startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} });
  open.push(daemon);
  for (const target of ['t', 't', 'gone'])
    assert.equal(
      (
        await fetch(`${daemon.url}/probe?target=${target}&probe=p`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
      200,
    );
  assert.ok((await metricLines(daemon, 'coherency_target_changes_total')).includes('coherency_target_changes_total{target="t"} 1'));
  assert.equal((await metricLines(daemon, 'coherency_change_samples')).length, 2);

  await writeFile(path, configText(other.url));
  assert.deepEqual(await daemon.reload(), { ok: true });
  assert.deepEqual(await metricLines(daemon, 'coherency_change_samples'), [], 'the comparison of the old server is gone');
  assert.deepEqual(await metricLines(daemon, 'coherency_target_info'), [], 'neither the old info series nor the removed target');
  assert.equal((await (await fetch(`${daemon.url}/`)).text()).includes('since the change'), false);
  assert.equal(
    (await fetch(`${daemon.url}/probe?target=t&probe=p`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
      .status,
    200,
  );
  assert.deepEqual(await metricLines(daemon, 'coherency_target_info'), [
    'coherency_target_info{target="t",server="vllm",version="1.0.0",model_revision="/models/simulated-r1",model="healthy",served_model="healthy"} 1',
  ]);
  assert.deepEqual(
    await metricLines(daemon, 'coherency_target_changes_total'),
    ['coherency_target_changes_total{target="t"} 1'],
    'no change counted',
  );
});
