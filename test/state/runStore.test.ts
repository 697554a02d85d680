import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunStore, fileNameFor, shouldStore } from '../../src/state/runStore.js';
import type { RunResult } from '../../src/probe/probeTypes.js';
import { silentLogger } from '../helpers/testConfig.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function run(i: number, verdict: RunResult['verdict'], text = 'x'.repeat(1000)): RunResult {
  return {
    id: `run-${i}`,
    target: 't',
    probe: 'p',
    verdict,
    trigger: 'schedule',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    durationSeconds: 1,
    samples: [{ verdict, content: text } as RunResult['samples'][number]],
  };
}

test('only runs with a fail or error sample are worth storing', () => {
  assert.equal(shouldStore(run(1, 'ok')), false);
  assert.equal(shouldStore(run(1, 'warn')), false);
  assert.equal(shouldStore(run(1, 'fail')), true);
  assert.equal(shouldStore(run(1, 'error')), true);
});

test('file names sort by start time and cannot escape the directory', () => {
  assert.equal(fileNameFor(run(5, 'fail')), '20260101T000005000Z_run-5.json');
  assert.equal(fileNameFor({ ...run(5, 'fail'), id: '../../etc/passwd' }), '20260101T000005000Z_etcpasswd.json');
});

test('retention by count and by bytes drops the oldest; unreadable files are skipped', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coherency-store-'));
  dirs.push(dir);
  const store = createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger: silentLogger });
  for (let i = 0; i < 8; i++) await store.save(run(i, 'fail'));
  let runs = await store.loadAll();
  assert.deepEqual(runs.map((r) => r.id), ['run-3', 'run-4', 'run-5', 'run-6', 'run-7']);

  const small = createRunStore({ dir, maxRuns: 100, maxBytes: 3500, logger: silentLogger });
  await small.save(run(9, 'error'));
  runs = await small.loadAll();
  assert.deepEqual(runs.map((r) => r.id), ['run-7', 'run-9'], 'only what fits in 3500 bytes stays');

  await writeFile(join(dir, '20260101T000010000Z_broken.json'), '{not json');
  await writeFile(join(dir, '20260101T000011000Z_shape.json'), JSON.stringify({ id: 'x', samples: [null] }));
  await writeFile(join(dir, '20260101T000012000Z_cut.json.tmp-4242'), '{"id":"half a wri');
  runs = await small.loadAll();
  assert.deepEqual(runs.map((r) => r.id), ['run-7', 'run-9']);
  assert.equal((await readdir(dir)).some((n) => n.includes('.tmp-')), false, 'the temp file of an interrupted write is removed');
});

test('runs stored before findings had offsets load with their kinds as findings', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coherency-store-'));
  dirs.push(dir);
  const old = { ...run(1, 'fail'), samples: [{ verdict: 'fail', findings: ['sentence_loop', 'inconclusive'], content: '' }] };
  await writeFile(join(dir, fileNameFor(old as unknown as RunResult)), JSON.stringify(old));
  const [loaded] = await createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger: silentLogger }).loadAll();
  const findings = loaded!.samples[0]!.findings;
  assert.deepEqual(findings.map((f) => [f.kind, f.severity, f.atChar, f.channel]), [['sentence_loop', 'fail', -1, 'sample'], ['inconclusive', 'fail', -1, 'sample']]);
});
