import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SampleSlots } from '../../src/scheduler/sampleSlots.js';

const tick = () => new Promise((r) => setImmediate(r));

test('no more slots are held than the limit; the waiting ones start in arrival order as slots are given back', async () => {
  const slots = new SampleSlots(2);
  const order: number[] = [];
  const releases: Array<() => void> = [];
  for (let i = 0; i < 5; i++) {
    void slots.acquire().then((release) => {
      order.push(i);
      releases.push(release);
    });
  }
  await tick();
  assert.deepEqual(order, [0, 1]);
  assert.equal(slots.inUse, 2);
  assert.equal(slots.waiting, 3);
  releases[0]!();
  releases[0]!(); // a second release of the same slot changes nothing
  await tick();
  assert.deepEqual(order, [0, 1, 2]);
  assert.equal(slots.inUse, 2);
  releases[1]!();
  releases[2]!();
  await tick();
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.equal(slots.waiting, 0);
  for (const r of releases.slice(3)) r();
  assert.equal(slots.inUse, 0);
});

test('a raised limit (reload) lets waiting samples start at once', async () => {
  const slots = new SampleSlots(1);
  await slots.acquire();
  let started = false;
  void slots.acquire().then(() => (started = true));
  await tick();
  assert.equal(started, false);
  slots.setLimit(2);
  await tick();
  assert.equal(started, true);
  assert.throws(() => slots.setLimit(0), RangeError);
});
