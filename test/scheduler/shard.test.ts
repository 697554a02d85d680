import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inShard, parseShard, shardOf } from '../../src/scheduler/shard.js';

test('every target lands on exactly one shard, and the split is roughly even', () => {
  const names = Array.from({ length: 300 }, (_, i) => `target-${i}`);
  const counts = [0, 0, 0];
  for (const n of names) {
    const owners = [0, 1, 2].filter((index) => inShard(n, { index, count: 3 }));
    assert.equal(owners.length, 1, n);
    counts[owners[0]!]!++;
  }
  for (const c of counts) assert.ok(c > 70 && c < 130, `uneven split ${counts}`);
  assert.equal(shardOf('vllm-a', 4), shardOf('vllm-a', 4), 'stable');
  assert.equal(inShard('x', null), true);
});

test('parseShard takes numbers or StatefulSet pod names and explains bad values', () => {
  assert.equal(parseShard(undefined, undefined), null);
  assert.deepEqual(parseShard('2', '3'), { index: 2, count: 3 });
  assert.deepEqual(parseShard('coherency-exporter-1', '3'), { index: 1, count: 3 });
  assert.equal(parseShard('3', '3'), 'shard index 3 must be below the shard count 3');
  assert.equal(parseShard('1', undefined), 'set both the shard index and the shard count');
  assert.equal(parseShard('1', 'two'), 'shard count must be a positive integer, got "two"');
  assert.match(String(parseShard('abc', '2')), /shard index must be an integer/);
});
