import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SCHEDULE_OFFSET_SECONDS, scheduleOffsetMs } from '../../src/scheduler/scheduleOffset.js';

const names = Array.from({ length: 50 }, (_, i) => `t${i + 1}`);

test('the offset is the same for the same pair, every time', () => {
  for (const n of names) assert.equal(scheduleOffsetMs(n, 'short', 5), scheduleOffsetMs(n, 'short', 5));
  assert.notEqual(scheduleOffsetMs('a', 'short', 60), scheduleOffsetMs('a', 'long', 60), 'the probe is part of the key');
});

test('offsets stay inside the interval and spread over it', () => {
  for (const interval of [1, 5, 10, 60]) {
    const offsets = names.map((n) => scheduleOffsetMs(n, 'short', interval));
    for (const o of offsets) assert.ok(Number.isInteger(o) && o >= 0 && o < interval * 1000, `${o} ms in a ${interval} s interval`);
    // 50 pairs in 5 slices of the interval: none empty, none with more than half of them
    const slices = [0, 0, 0, 0, 0];
    for (const o of offsets) slices[Math.floor((o / (interval * 1000)) * 5)]!++;
    assert.ok(
      slices.every((s) => s > 0 && s < 25),
      `spread over a ${interval} s interval: ${slices.join(',')}`,
    );
  }
});

test('long intervals are spread over the first 300 s only; no interval, no offset', () => {
  const daily = names.map((n) => scheduleOffsetMs(n, 'nightly', 86_400));
  assert.ok(daily.every((o) => o < MAX_SCHEDULE_OFFSET_SECONDS * 1000));
  assert.ok(Math.max(...daily) > 200_000, 'still spread over those 300 s');
  assert.equal(scheduleOffsetMs('a', 'b', null), 0);
  assert.equal(scheduleOffsetMs('a', 'b', 0), 0);
});
