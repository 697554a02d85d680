// The minimum output rate (issue 34): windows are counted by the caller's timer, so a window
// here is one call of windowEnded, with no clock at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SLOW_SECONDS, MIN_OUTPUT_BYTES_PER_SECOND, OutputRate, slowWindowMs } from '../../src/client/outputRate.js';

test('a window under 2 bytes a second ends the stream; at or over the floor it goes on', () => {
  const rate = new OutputRate(10);
  assert.equal(rate.minBytes, 10 * MIN_OUTPUT_BYTES_PER_SECOND);
  assert.equal(rate.output(5), true, 'the first output opens the first window');
  assert.equal(rate.output(15), false);
  assert.equal(rate.windowEnded(), null, '20 bytes in 10 s is the floor');
  for (let i = 0; i < 10; i++) rate.output(1);
  assert.match(rate.windowEnded() ?? '', /^10 bytes of output in 10 s \(1 bytes\/s\), under the floor of 2 bytes\/s/);
});

test('no window is judged before the first output (the idle timer covers the wait for it)', () => {
  const rate = new OutputRate(1);
  assert.equal(rate.windowEnded(), null);
  assert.equal(rate.output(0), false, 'nothing is no output');
  assert.equal(rate.windowEnded(), null);
});

test('a slow but healthy stream passes every window: 1 token/s of English (~4 bytes), 1 CJK token/s (3 bytes)', () => {
  for (const bytesPerSecond of [4, 3, 8, 20]) {
    const rate = new OutputRate(DEFAULT_SLOW_SECONDS);
    for (let w = 0; w < 5; w++) {
      for (let s = 0; s < DEFAULT_SLOW_SECONDS; s++) rate.output(bytesPerSecond);
      assert.equal(rate.windowEnded(), null, `${bytesPerSecond} bytes/s, window ${w}`);
    }
  }
  const trickle = new OutputRate(DEFAULT_SLOW_SECONDS);
  for (let s = 0; s < DEFAULT_SLOW_SECONDS; s++) trickle.output(1);
  assert.notEqual(trickle.windowEnded(), null, 'one character a second is cut');
});

test('slowWindowMs: absent is the default; 0, negative or not finite disables the rule', () => {
  assert.equal(slowWindowMs(undefined), DEFAULT_SLOW_SECONDS * 1000);
  assert.equal(slowWindowMs(0.25), 250);
  for (const off of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(slowWindowMs(off), null);
});
