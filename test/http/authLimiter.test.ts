// The login limiter alone (issue 34): a bucket per address and one shared by all, one report a
// minute for all addresses together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthLimiter } from '../../src/http/authLimiter.js';

test('per address: perMinute failures, then a wait until one has refilled', () => {
  const l = new AuthLimiter({ perMinute: 10, globalPerMinute: 100 });
  for (let i = 0; i < 10; i++) {
    assert.equal(l.retryAfterSeconds('a', 0), 0);
    l.fail('a', 0);
  }
  assert.equal(l.retryAfterSeconds('a', 0), 6, 'one failure refills in 60/10 s');
  assert.equal(l.retryAfterSeconds('b', 0), 0, 'another address is not limited');
  assert.equal(l.retryAfterSeconds('a', 6000), 0);
});

test('all addresses together: globalPerMinute failures, then every address waits', () => {
  const l = new AuthLimiter({ perMinute: 10, globalPerMinute: 100 });
  for (let a = 0; a < 10; a++) for (let i = 0; i < 10; i++) l.fail(`10.0.0.${a}`, 0);
  assert.equal(l.retryAfterSeconds('192.0.2.1', 0), 1, 'a fresh address waits for the shared bucket');
  assert.equal(l.retryAfterSeconds('192.0.2.1', 600), 0, 'one failure of the shared bucket refills in 0.6 s');
});

test('forgetting the oldest address does not refill the shared bucket', () => {
  const l = new AuthLimiter({ perMinute: 10, globalPerMinute: 20, maxAddresses: 2 });
  for (let a = 0; a < 5; a++) for (let i = 0; i < 10; i++) l.fail(`10.0.0.${a}`, 0);
  assert.equal(l.size, 2);
  assert.ok(l.retryAfterSeconds('10.0.0.0', 0) > 0);
});

test('one report a minute for all addresses, with the failures, refusals and addresses since the last', () => {
  const l = new AuthLimiter({ perMinute: 10, globalPerMinute: 100 });
  assert.deepEqual(l.fail('a', 0), { address: 'a', failures: 1, refused: 0, addresses: 1 });
  for (let i = 0; i < 500; i++) assert.equal(l.refuse(`addr-${i}`, 1000), null);
  assert.equal(l.fail('b', 30_000), null);
  assert.deepEqual(l.fail('c', 60_000), { address: 'c', failures: 2, refused: 500, addresses: 502 });
});

test('bad options are named', () => {
  assert.throws(() => new AuthLimiter({ perMinute: 0, globalPerMinute: 10 }), /perMinute must be >= 1, got 0/);
  assert.throws(() => new AuthLimiter({ perMinute: 10, globalPerMinute: 5 }), /globalPerMinute must be >= perMinute \(10\), got 5/);
});
