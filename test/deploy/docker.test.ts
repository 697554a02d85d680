// The Dockerfile and its build context (issue 9, item 10): node as PID 1 in exec form, a
// HEALTHCHECK that asks the configured port instead of a hard-coded one, and a .dockerignore
// that keeps local builds, history and secrets out of the context. No Docker daemon is
// needed: the checks read the files the build would read.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { repoPath } from '../helpers/repoRoot.js';

const dockerfile = readFileSync(repoPath('Dockerfile'), 'utf8');
const lines = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const ignore = existsSync(repoPath('.dockerignore'))
  ? readFileSync(repoPath('.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
  : [];

const instructions = (name: string) => lines.filter((l) => l.toUpperCase().startsWith(`${name} `));
const execForm = (l: string) => JSON.parse(l.slice(l.indexOf('['))) as string[];

describe('Dockerfile', () => {
  it('starts node directly, in exec form, so SIGTERM and SIGHUP reach the daemon', () => {
    const entry = instructions('ENTRYPOINT');
    assert.equal(entry.length, 1);
    assert.deepEqual(execForm(entry[0] as string).slice(0, 2), ['node', 'bin/coherency-exporter.js']);
    for (const l of [...entry, ...instructions('CMD')]) assert.match(l, /^\w+\s+\[/, `exec form, not a shell: ${l}`);
    assert.doesNotMatch(dockerfile, /npm (start|run)/, 'npm as PID 1 does not pass SIGTERM on');
  });

  it('HEALTHCHECK runs the healthcheck command, not a hard-coded port', () => {
    const hc = instructions('HEALTHCHECK');
    assert.equal(hc.length, 1);
    const cmd = execForm(hc[0] as string);
    assert.deepEqual(cmd.slice(0, 3), ['node', 'bin/coherency-exporter.js', 'healthcheck']);
    assert.doesNotMatch(hc[0] as string, /9464/);
  });

  it('copies only paths that exist and that .dockerignore lets through', () => {
    const sources = instructions('COPY')
      .filter((l) => !l.includes('--from='))
      .flatMap((l) => l.split(/\s+/).slice(1, -1));
    assert.ok(sources.length > 0);
    for (const src of sources) {
      assert.ok(existsSync(repoPath(src)), `COPY ${src}: no such path`);
      assert.ok(!ignore.some((p) => p === src || src.startsWith(`${p}/`)), `COPY ${src} is excluded by .dockerignore`);
    }
  });

  it('.dockerignore keeps local builds, history and secrets out of the context', () => {
    for (const p of ['.git', 'node_modules', 'dist', '.env', '*.key', '*.pem']) assert.ok(ignore.includes(p), `.dockerignore lacks ${p}`);
  });

  // Issue 39: failing runs outlive the container without any setup.
  it('keeps stored runs on a volume the node user owns, named by COHERENCY_STORAGE_DIR', () => {
    const env = instructions('ENV').find((l) => l.includes('COHERENCY_STORAGE_DIR='));
    const dir = env?.split('=')[1] as string;
    assert.match(dir ?? '', /^\//, 'an absolute path');
    assert.deepEqual(instructions('VOLUME').map(execForm), [[dir]]);
    assert.ok(
      instructions('RUN').some((l) => l.includes(`mkdir -p ${dir}`) && l.includes(`chown node:node ${dir}`)),
      `${dir} is made and given to node`,
    );
  });

  it('runs as the unprivileged node user', () => {
    assert.deepEqual(instructions('USER'), ['USER node']);
  });

  it('builds on the current Node LTS (24) in both stages', () => {
    const froms = instructions('FROM');
    assert.equal(froms.length, 2);
    for (const f of froms) assert.match(f, /^FROM node:24-bookworm-slim\b/, f);
  });

  it('builds the CLI bundle and ships it beside the compiled modules', () => {
    assert.ok(
      instructions('RUN').some((l) => /npx tsc -p tsconfig\.build\.json && node --import tsx scripts\/bundle\.ts/.test(l)),
      'the build stage runs tsc, then the bundle',
    );
    const copied = instructions('COPY').filter((l) => l.includes('--from=build'));
    assert.deepEqual(
      copied.map((l) => l.split(/\s+/).slice(2)),
      [
        ['/app/dist/src', './dist/src'],
        ['/app/dist/cli', './dist/cli'],
      ],
    );
  });

  it('ships the demo as config/demo.yaml only: without a mounted config the image probes nothing', () => {
    const copies = instructions('COPY').map((l) => l.split(/\s+/).slice(1));
    assert.ok(!copies.some((c) => c[0] === 'config'), 'the whole config folder would put the demo at config/coherency.yaml');
    const demo = copies.find((c) => c[0] === 'config/coherency.yaml');
    assert.deepEqual(demo, ['config/coherency.yaml', './config/demo.yaml']);
    assert.ok(copies.some((c) => c.includes('config/example.yaml') && c.includes('config/coherency.schema.json')));
  });
});
