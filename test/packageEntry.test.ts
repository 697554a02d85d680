import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { repoPath } from './helpers/repoRoot.js';

test("the package's main entry exports analyzeText, loadable by its package name", () => {
  const pkg = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { main: string; exports: { '.': { default: string } } };
  // Import through the package's own name (self-reference via "exports"), as a user would.
  const script = `import('coherency-exporter').then((m) => {
    const ok = m.analyzeText('A short, healthy answer about caches and their eviction policies.');
    const bad = m.analyzeText('intro text here. ' + 'again and again we go round. '.repeat(40));
    console.log(JSON.stringify({ ok: ok.verdict, bad: bad.verdict, keys: Object.keys(ok), stream: typeof m.createStreamAnalyzer }));
  })`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoPath(), encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { ok: string; bad: string; keys: string[]; stream: string };
  assert.deepEqual(out.keys, ['verdict', 'findings', 'reasons', 'metrics']);
  assert.equal(out.bad, 'fail');
  assert.notEqual(out.ok, 'fail');
  assert.equal(out.stream, 'function');
  assert.equal(pkg.main, pkg.exports['.'].default);
});
