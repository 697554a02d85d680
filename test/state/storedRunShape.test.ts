import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunStore, encodeStoredRun, fileNameFor } from '../../src/state/runStore.js';
import { repairRun } from '../../src/state/storedRunShape.js';
import { outcomeOf, type RunResult } from '../../src/probe/probeTypes.js';
import { silentLogger, testRun } from '../helpers/testConfig.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const RECALL = { ratio: 0.4, minRecall: 0.5, facts: 5, recalled: 2, conversationTokens: 8000, byPosition: {}, missed: [] };
const CONTAMINATION = { request: 2, topic: 'tides', codeWord: 'ORCHID', ownCodeWord: true, leakedFrom: [1] };
const CHECKLIST = {
  checks: [{ check: 'models', status: 'fail', reason: 'model_not_listed', detail: 'not listed', evidence: {}, durationSeconds: 0.1 }],
  reasoningModel: false,
  streaming: null,
};

/** A failed run as the previous release stored it: each kind's outcome in a field of its own. */
function oldRun(id: string, startSecond: number, samples: Record<string, unknown>[]): RunResult {
  return testRun(
    id,
    samples.map((s, index) => ({ index, verdict: 'fail', findings: [], notes: [], content: 'answer', reasoning: '', ...s })),
    { startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, startSecond)).toISOString() },
  );
}

test('runs stored with recall, contamination and conformance fields load with one `outcome` of that kind', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coherency-outcome-'));
  dirs.push(dir);
  const stored = oldRun('old-kinds', 1, [{ recall: RECALL }, { contamination: CONTAMINATION }, { conformance: CHECKLIST }, {}]);
  await writeFile(join(dir, fileNameFor(stored)), encodeStoredRun(stored));
  // 0.1's one-line format, with the old field too
  const oneLine = oldRun('old-line', 2, [{ conformance: CHECKLIST }]);
  await writeFile(join(dir, fileNameFor(oneLine)), JSON.stringify(oneLine));
  const store = createRunStore({ dir, maxRuns: 5, maxBytes: 1_000_000, logger: silentLogger });
  assert.equal(await store.open(), 2);

  const run = await store.load('old-kinds');
  assert.ok(run);
  const [recall, contamination, conformance, plain] = run.samples;
  assert.deepEqual(recall!.outcome, { kind: 'recall', ...RECALL });
  assert.deepEqual(outcomeOf(contamination!, 'contamination')?.leakedFrom, [1]);
  assert.equal(outcomeOf(conformance!, 'conformance')?.checks[0]?.reason, 'model_not_listed');
  assert.equal(plain!.outcome, undefined);
  for (const s of run.samples) {
    const fields = Object.keys(s);
    for (const old of ['recall', 'contamination', 'conformance']) assert.ok(!fields.includes(old), `${old} is gone from sample ${s.index}`);
  }
  const head = store.heads().find((r) => r.id === 'old-kinds');
  assert.equal(head?.samples[0]?.outcome?.kind, 'recall', 'the listing reads the same shape');

  const line = await store.load('old-line');
  assert.equal(outcomeOf(line!.samples[0]!, 'conformance')?.reasoningModel, false);
});

test('a stored outcome is kept as it is; one that names no kind is dropped', () => {
  const run = repairRun(
    oldRun('new', 3, [
      { outcome: { kind: 'recall', ...RECALL } },
      { outcome: 'broken' },
      { outcome: { ratio: 1 } },
      // both shapes (a hand edit): the outcome wins, the old field goes
      { outcome: { kind: 'contamination', ...CONTAMINATION }, recall: RECALL },
    ]),
  );
  assert.deepEqual(
    run.samples.map((s) => s.outcome?.kind ?? null),
    ['recall', null, null, 'contamination'],
  );
  assert.ok(!('recall' in run.samples[3]!));
});
