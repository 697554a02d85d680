import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunHistory, textBytes, type StoredRuns } from '../../src/state/runHistory.js';
import type { RunResult } from '../../src/probe/probeTypes.js';
import { testRun } from '../helpers/testConfig.js';

function run(id: string, chars: number, over: Partial<RunResult> = {}): RunResult {
  return testRun(id, [{ verdict: 'fail', content: 'c'.repeat(chars), reasoning: '', notes: [], findings: [] }], over);
}

/** Stored runs as a map; heads without text, as the store gives them. */
function fakeStore(runs: RunResult[]): StoredRuns & { loads: string[] } {
  const loads: string[] = [];
  return {
    loads,
    heads: () => runs.map((r) => ({ ...r, samples: r.samples.map((s) => ({ ...s, content: '', reasoning: '' })) })),
    load: async (id) => {
      loads.push(id);
      return runs.find((r) => r.id === id) ?? null;
    },
  };
}

const ids = (runs: readonly RunResult[]) => runs.map((r) => r.id);

test('text is counted as V8 holds it: a byte a character for Latin-1, two per code unit otherwise', () => {
  assert.equal(textBytes('abc'), 3);
  assert.equal(textBytes('café'), 4);
  assert.equal(textBytes('ab€'), 6);
  assert.equal(textBytes('a🙂'), 6);
});

test('runs leave memory oldest first once their text is over maxBytes', async () => {
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 });
  for (let i = 1; i <= 5; i++) history.add(run(`r${i}`, 300));
  assert.deepEqual(ids(history.list()), ['r5', 'r4', 'r3']);
  assert.equal(history.textBytes, 900);
  history.add(run('r6', 50));
  assert.deepEqual(ids(history.list()), ['r6', 'r5', 'r4', 'r3'], 'a small run fits beside the others');
  history.add(run('r7', 700));
  assert.deepEqual(ids(history.list()), ['r7', 'r6'], '700 + 50 + 300 is over 1000: r5 goes too');
  assert.equal(history.textBytes, 750);
  assert.equal(await history.get('r3'), undefined, 'evicted and not stored: gone');
  assert.equal((await history.get('r7'))!.samples[0]!.content.length, 700);
});

test('reasoning counts too, and two-byte text counts double', () => {
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 });
  history.add(
    run('a', 0, {
      samples: [
        {
          verdict: 'ok',
          content: '€'.repeat(200),
          reasoning: 'r'.repeat(100),
          notes: [],
          findings: [],
        } as unknown as RunResult['samples'][number],
      ],
    }),
  );
  assert.equal(history.textBytes, 500);
  history.add(run('b', 600));
  assert.deepEqual(ids(history.list()), ['b'], 'the two-byte run no longer fits');
});

test('the count limit still applies', () => {
  const history = new RunHistory({ maxRuns: 2, maxBytes: 1_000_000 });
  for (let i = 1; i <= 4; i++) history.add(run(`r${i}`, 10));
  assert.deepEqual(ids(history.list()), ['r4', 'r3']);
  assert.equal(history.textBytes, 20);
});

test('a run larger than maxBytes on its own is kept without its text, with a note; the older runs stay', async () => {
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 });
  history.add(run('small', 400));
  const huge = run('huge', 5000);
  history.add(huge);
  assert.deepEqual(ids(history.list()), ['huge', 'small']);
  assert.equal(history.textBytes, 400);
  const kept = (await history.get('huge'))!;
  assert.equal(kept.samples[0]!.content, '');
  assert.match(
    kept.samples[0]!.notes.at(-1)!,
    /output text not kept in memory: this run's 5000 bytes of text are more than storage\.historyMaxBytes \(1000\)/,
  );
  assert.equal(huge.samples[0]!.content.length, 5000, 'the run itself (stored, answered to /probe) keeps its text');
  assert.deepEqual(huge.samples[0]!.notes, []);
});

test('a run too large for memory is answered from disk when it was stored', async () => {
  const huge = run('huge', 5000);
  const stored = fakeStore([huge]);
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 }, stored);
  history.add(huge);
  assert.equal((await history.get('huge'))!.samples[0]!.content.length, 5000);
  assert.deepEqual(ids(history.list()), ['huge'], 'listed once');
});

test('stored runs are listed after the runs in memory, once; their text is read only when asked for', async () => {
  const old1 = run('old1', 100, { startedAt: '2025-12-01T00:00:00.000Z' });
  const old2 = run('old2', 100, { startedAt: '2025-12-02T00:00:00.000Z', target: 'other' });
  const both = run('both', 100);
  const stored = fakeStore([both, old2, old1]);
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 }, stored);
  history.add(run('mem', 100, { verdict: 'ok' }));
  history.add(both);
  assert.deepEqual(ids(history.list()), ['both', 'mem', 'old2', 'old1']);
  assert.deepEqual(ids(history.list({ limit: 3 })), ['both', 'mem', 'old2']);
  assert.deepEqual(ids(history.list({ target: 'other' })), ['old2']);
  assert.deepEqual(ids(history.list({ verdict: 'ok' })), ['mem']);
  assert.deepEqual(stored.loads, [], 'listing reads no text');
  assert.equal((await history.get('both'))!.samples[0]!.content.length, 100);
  assert.deepEqual(stored.loads, [], 'a run in memory is answered from memory');
  assert.equal((await history.get('old1'))!.samples[0]!.content.length, 100);
  assert.deepEqual(stored.loads, ['old1']);
  assert.equal(await history.get('nope'), undefined);
});

test('an evicted run that was stored is read from disk', async () => {
  const first = run('first', 800);
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 }, fakeStore([first]));
  history.add(first);
  history.add(run('second', 800));
  assert.equal(history.size, 1);
  assert.deepEqual(ids(history.list()), ['second', 'first']);
  assert.equal((await history.get('first'))!.samples[0]!.content.length, 800);
});

test('retain drops runs and their bytes', () => {
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 });
  history.add(run('a', 300, { target: 'gone' }));
  history.add(run('b', 300));
  history.retain((r) => r.target !== 'gone');
  assert.deepEqual(ids(history.list()), ['b']);
  assert.equal(history.textBytes, 300);
});

test('limits must be positive integers', () => {
  assert.throws(() => new RunHistory({ maxRuns: 0, maxBytes: 10 }), RangeError);
  assert.throws(() => new RunHistory({ maxRuns: 1, maxBytes: 1.5 }), RangeError);
});

test('the history keeps its own copy of everything but the text (an excerpt may be a view of a longer string)', async () => {
  const history = new RunHistory({ maxRuns: 100, maxBytes: 1000 });
  const original = run('a', 10);
  history.add(original);
  original.samples[0]!.notes.push('changed later');
  original.verdict = 'ok';
  const kept = (await history.get('a'))!;
  assert.deepEqual(kept.samples[0]!.notes, []);
  assert.equal(kept.verdict, 'fail');
  assert.equal(kept.samples[0]!.content, original.samples[0]!.content);
});

test('the history decides what is stored: a failing or erroring run is saved, a healthy one is not', async () => {
  const saved: string[] = [];
  const history = new RunHistory(
    { maxRuns: 100, maxBytes: 1000 },
    {
      ...fakeStore([]),
      save: async (r) => {
        saved.push(r.id);
      },
    },
  );
  history.add(run('failed', 10));
  history.add(run('healthy', 10, { verdict: 'ok', samples: [{ ...run('x', 10).samples[0]!, verdict: 'ok' }] }));
  history.add(run('erred', 10, { samples: [{ ...run('x', 10).samples[0]!, verdict: 'error' }] }));
  assert.deepEqual(saved, ['failed', 'erred']);
  assert.deepEqual(ids(history.list()), ['erred', 'healthy', 'failed'], 'every run is kept in memory alike');
});
