// Issue 39, "Done when": a failed run's page and its log link still open after a daemon restart.
// The config says nothing about storage, so the default applies: data/runs under the working
// directory (a temp dir here; $COHERENCY_STORAGE_DIR is set empty, which is the same as unset).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  CLI,
  type Child,
  ensureBuilt,
  fetchText,
  freePort,
  makeTempDir,
  RUN_PROBE,
  startChild,
  waitFor,
  waitReady,
} from '../helpers/integrationProcess.js';

function configYaml(simUrl: string): string {
  return `targets:
  - name: collapse
    baseUrl: ${simUrl}
    model: collapse-sentence@300
probes:
  - name: short
    prompt: Write a detailed technical article about building a reliable job scheduler.
    maxTokens: 1200
    minTokens: 200
    schedule: "0 0 1 1 *"
    runOnStart: false
`;
}

const LINK_RE = /http:\/\/127\.0\.0\.1:\d+\/runs\/[0-9a-f-]{36}/;

describe('stored runs outlive a restart by default', { timeout: 90_000 }, () => {
  let sim: Simulator | undefined;
  const tmp = makeTempDir('stored-restart');
  const children: Child[] = [];

  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    writeFileSync(join(tmp.dir, 'coherency.yaml'), configYaml(sim.url));
  });

  after(async () => {
    for (const c of children) await c.stop(2000);
    await sim?.close();
    tmp.remove();
  });

  const serve = (port: number): Child => {
    const child = startChild(
      process.execPath,
      [CLI, 'serve', '--config', 'coherency.yaml', '--port', String(port), '--log-format', 'pretty'],
      {
        cwd: tmp.dir,
        env: { ...process.env, LOG_LEVEL: 'info', COHERENCY_STORAGE_DIR: '' },
      },
    );
    children.push(child);
    return child;
  };

  it('a failing run: its page (JSON and HTML) and the link of its log line answer 200 after a restart', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = serve(port);
    await waitReady(first, base);
    assert.equal((await fetchText(`${base}/probe?target=collapse&probe=short`, 30_000, RUN_PROBE)).status, 200);
    const line = await waitFor('the failing sample line with its link', () =>
      first
        .stdout()
        .split('\n')
        .find((l) => l.includes('collapse/short') && l.includes(' fail') && LINK_RE.test(l)),
    );
    const link = (LINK_RE.exec(line) as RegExpExecArray)[0];
    const id = link.slice(link.lastIndexOf('/') + 1);
    await first.stop(10_000);
    const dir = join(tmp.dir, 'data', 'runs');
    assert.ok(existsSync(dir), `the default storage dir ${dir} was made`);
    for (const made of [join(tmp.dir, 'data'), dir]) assert.equal(statSync(made).mode & 0o777, 0o700, `${made} is owner-only`);
    assert.ok(
      readdirSync(dir).some((f) => f.includes(id)),
      `run ${id} is stored in ${dir}: ${readdirSync(dir).join(', ')}`,
    );

    const second = serve(port);
    await waitReady(second, base);
    const json = await fetch(`${base}/runs/${id}`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 200);
    const run = (await json.json()) as { id: string; verdict: string; samples: { content: string }[] };
    assert.equal(run.id, id);
    assert.equal(run.verdict, 'fail');
    assert.ok((run.samples[0]?.content.length ?? 0) > 0, 'the output text is kept');
    const html = await fetch(`${base}/runs/${id}`, { headers: { accept: 'text/html' } });
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
    await html.arrayBuffer();
    const fromLog = await fetch(link);
    assert.equal(fromLog.status, 200, `the log line's link ${link}`);
    await fromLog.arrayBuffer();
    assert.match(second.stdout(), /stored runs indexed/);
  });
});
