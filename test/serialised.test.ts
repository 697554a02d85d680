import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serialised } from '../src/serialised.js';

const tick = () => new Promise((r) => setImmediate(r));

test('one run at a time; calls during a run share one queued run that starts after it', async () => {
  let active = 0;
  let maxActive = 0;
  let started = 0;
  const gates: Array<() => void> = [];
  const run = serialised(async () => {
    const n = ++started;
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((r) => gates.push(r));
    active--;
    return n;
  });
  const first = run();
  const second = run();
  const third = run();
  await tick();
  assert.equal(started, 1, 'the queued run waits for the first');
  gates.shift()!();
  assert.equal(await first, 1);
  await tick();
  assert.equal(started, 2, 'one queued run for both calls');
  gates.shift()!();
  assert.equal(await second, 2);
  assert.equal(await third, 2, 'coalesced: the same run answers both');
  assert.equal(maxActive, 1);
  const fourth = run();
  await tick();
  gates.shift()!();
  assert.equal(await fourth, 3, 'idle again: a call starts at once');
});

test('a run that throws rejects its callers only; the queued run still starts', async () => {
  let n = 0;
  const run = serialised(async () => {
    await new Promise((r) => setImmediate(r));
    if (++n === 1) throw new Error('first fails');
    return n;
  });
  const a = run();
  const b = run();
  await assert.rejects(a, /first fails/);
  assert.equal(await b, 2);
});
