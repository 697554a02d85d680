// Issue 21 §2, "Done when": CI packs the package, installs it into an empty folder and runs its
// commands; the README's CI snippets run the commands this test runs. One test, done once: `npm
// pack` (of the dist/ that `npm test` has just built), `npm install ./coherency-exporter-*.tgz`
// into an empty temp folder (from npm's cache when it holds the dependencies, as after `npm ci`),
// then the installed `coherency-exporter` command: --help, check-config of its shipped demo
// config, analyze of a collapsed text, probe of a copy of the demo config (which starts its own
// simulator), serve laid out as the container image is (no config: a clear error naming the
// path; --demo: the demo), and each README snippet's `probe` command line as written, run by a
// shell with OPENAI_BASE_URL pointing at a loopback simulator.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { demoConfig } from '../helpers/demoConfig.js';
import {
  ensureBuilt,
  findExecutable,
  freePort,
  makeTempDir,
  ROOT,
  runCommand,
  startChild,
  waitFor,
} from '../helpers/integrationProcess.js';

/** The `probe` command lines of README's CI snippets (the lines that run `npx coherency-exporter probe`), whole. */
function snippetProbeCommands(readme: string): string[] {
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return blocks.flatMap((b) =>
    b
      .split('\n')
      .map((l) => /(?:^|\s)(npx coherency-exporter probe .*)$/.exec(l)?.[1])
      .filter((c): c is string => c !== undefined),
  );
}

/** The environment without the caller's own OPENAI_ and COHERENCY_ variables. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_')));

describe('the packed package, installed into an empty folder', { timeout: 240_000 }, () => {
  const tmp = makeTempDir('package');
  let sim: Simulator | undefined;
  after(async () => {
    await sim?.close();
    tmp.remove();
  });

  it('installs from npm pack, and its command runs --help, check-config, analyze, probe and the README snippets', async (t) => {
    ensureBuilt();
    const npm = findExecutable('npm');
    if (!npm) return t.skip('npm is not on PATH');
    // --ignore-scripts: `prepare` would rebuild dist/ under the other test files running now
    const pack = spawnSync(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', tmp.dir], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(pack.status, 0, pack.stderr);
    const tarball = readdirSync(tmp.dir).find((f) => /^coherency-exporter-.*\.tgz$/.test(f));
    assert.ok(tarball, `npm pack wrote no tarball: ${pack.stdout}`);

    const app = join(tmp.dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    const install = spawnSync(
      npm,
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--silent', join(tmp.dir, tarball)],
      { cwd: app, encoding: 'utf8', timeout: 180_000 },
    );
    assert.equal(install.status, 0, `npm install of the tarball failed:\n${install.stdout}\n${install.stderr}`);
    const installed = join(app, 'node_modules', 'coherency-exporter');
    const bin = join(app, 'node_modules', '.bin', 'coherency-exporter');
    assert.ok(existsSync(bin), 'the package installs its coherency-exporter command');
    assert.ok(existsSync(join(installed, 'dist', 'cli', 'cli.js')), 'the package holds the CLI bundle');
    const run = (args: string[], env: Record<string, string> = {}) =>
      runCommand(bin, args, { cwd: app, timeoutMs: 60_000, env: { ...cleanEnv, ...env } });

    const help = await run(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^coherency-exporter \d+\.\d+\.\d+: /);
    assert.match(help.stdout, /probe +run probes once and exit/);

    const shipped = join(installed, 'config', 'coherency.yaml');
    const check = await run(['check-config', shipped]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /: valid \(\d+ targets, \d+ probes\)/);

    const text = join(tmp.dir, 'collapsed.txt');
    writeFileSync(text, `A short introduction to caches. ${'The cache evicts the entry and the entry evicts the cache. '.repeat(40)}`);
    const analyze = await run(['analyze', text]);
    assert.equal(analyze.code, 1, analyze.stderr);
    assert.match(analyze.stdout, /FAIL/);

    // the demo config as shipped in the package, on a free simulator port: probe starts the simulator itself
    const demo = join(tmp.dir, 'demo.yaml');
    writeFileSync(demo, demoConfig({ simulatorPort: await freePort(), tokensPerSecond: 0 }, readFileSync(shipped, 'utf8')));
    const probe = await run(['probe', '--config', demo, '--target', 'sim-healthy', '--probe', 'short']);
    assert.equal(probe.code, 0, `${probe.stdout}\n${probe.stderr}`);
    assert.match(probe.stdout, /sim-healthy\/short #0: OK/);

    // The container image's layout: the demo as config/demo.yaml, nothing at config/coherency.yaml.
    // Without a config serve says where one goes and exits 2; --demo still runs the demo.
    renameSync(shipped, join(installed, 'config', 'demo.yaml'));
    const none = await run(['serve']);
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, new RegExp(`^error: no config: .* and ${join(app, 'config', 'coherency.yaml')} does not exist\\.`));
    assert.match(none.stderr, /--demo runs the built-in simulator demo/);
    assert.equal((await run(['serve', '--demo', '--config', demo])).code, 2);
    const demoServe = startChild(bin, ['serve', '--demo', '--port', String(await freePort()), '--log-format', 'json'], {
      cwd: app,
      env: { ...cleanEnv, LOG_LEVEL: 'info' },
    });
    try {
      const first = await waitFor('the config line of serve --demo', () => demoServe.stdout().split('\n')[0] || undefined);
      assert.match(first, /"msg":"config from [^"]*node_modules\/coherency-exporter\/config\/demo\.yaml \(--demo\);/);
    } finally {
      await demoServe.stop(5000);
    }

    // README's snippets, as a CI job runs them: from the checkout's folder, saving next to it
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    const commands = snippetProbeCommands(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    assert.ok(commands.length >= 2, `README has ${commands.length} CI snippets running npx coherency-exporter probe`);
    for (const [i, command] of commands.entries()) {
      // inside the folder the package is installed in, as a clone after `npm ci` is: npx finds the command there
      const job = join(app, `job-${i}`);
      const checkout = join(job, 'coherency-exporter');
      mkdirSync(checkout, { recursive: true });
      const r = await runCommand('/bin/sh', ['-c', command], {
        cwd: checkout,
        timeoutMs: 60_000,
        env: {
          ...cleanEnv,
          // never the registry: the command must be found where it is installed
          npm_config_offline: 'true',
          OPENAI_BASE_URL: sim.url,
          MODEL: 'healthy',
        },
      });
      assert.equal(r.code, 0, `${command}\n${r.stdout}\n${r.stderr}`);
      const saved = command.match(/--save (\S+)/)?.[1];
      if (saved) assert.ok(existsSync(join(checkout, saved, 'cli', 'probe', 'sample-0', 'output.txt')), `${command}: nothing saved`);
    }
  });
});
