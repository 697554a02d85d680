import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoPath } from './helpers/repoRoot.js';

test("the package's main entry exports analyzeText, loadable by its package name", () => {
  const pkg = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { main: string; exports: { '.': { default: string } } };
  // Import through the package's own name (self-reference via "exports"), as a user would.
  const script = `import('coherency-exporter').then((m) => {
    const ok = m.analyzeText('A short, healthy answer about caches and their eviction policies.');
    const bad = m.analyzeText('intro text here. ' + 'again and again we go round. '.repeat(40));
    const scored = Object.keys(m.analyzeText('A short, healthy answer about caches.', { score: true }));
    console.log(JSON.stringify({ ok: ok.verdict, bad: bad.verdict, keys: Object.keys(ok), scored, stream: typeof m.createStreamAnalyzer }));
  })`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoPath(), encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { ok: string; bad: string; keys: string[]; scored: string[]; stream: string };
  // the learned model's score only when asked for (it costs about a fifth of a call)
  assert.deepEqual(out.keys, ['verdict', 'findings', 'reasons', 'metrics']);
  assert.deepEqual(out.scored, ['verdict', 'findings', 'reasons', 'metrics', 'score']);
  assert.equal(out.bad, 'fail');
  assert.notEqual(out.ok, 'fail');
  assert.equal(out.stream, 'function');
  assert.equal(pkg.main, pkg.exports['.'].default);
});

test('the launcher runs the bundle (dist/cli) unless it is older than the compiled modules (dist/src)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-launcher-'));
  try {
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist', 'src'), { recursive: true });
    mkdirSync(join(dir, 'dist', 'cli'));
    copyFileSync(repoPath('bin', 'coherency-exporter.js'), join(dir, 'bin', 'coherency-exporter.js'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const stub = (name: string) => `export async function main() { process.stdout.write('${name}'); return 0; }\n`;
    const modules = join(dir, 'dist', 'src', 'cli.js');
    const bundled = join(dir, 'dist', 'cli', 'cli.js');
    writeFileSync(modules, stub('modules'));
    writeFileSync(bundled, stub('bundle'));
    const run = () => spawnSync(process.execPath, [join(dir, 'bin', 'coherency-exporter.js')], { encoding: 'utf8', timeout: 20_000 });
    const older = new Date(Date.now() - 60_000);
    utimesSync(modules, older, older);
    assert.equal(run().stdout, 'bundle', 'the bundle built after the modules');
    utimesSync(bundled, new Date(older.getTime() - 60_000), new Date(older.getTime() - 60_000));
    assert.equal(run().stdout, 'modules', 'a bundle older than the modules (tsc run alone) is stale');
    rmSync(bundled);
    assert.equal(run().stdout, 'modules', 'no bundle');
    rmSync(modules);
    const none = run();
    assert.equal(none.status, 2);
    assert.match(none.stderr, /dist\/ is missing/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
