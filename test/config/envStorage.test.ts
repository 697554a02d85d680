// Issue 39: the OPENAI_BASE_URL quick start keeps failing runs on disk too: data/runs by default,
// $COHERENCY_STORAGE_DIR when set (the container image's volume).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configFromEnv } from '../../src/config/configFromEnv.js';

const ENV = { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'm' };

test('the env quick start keeps runs in data/runs, or in $COHERENCY_STORAGE_DIR', () => {
  const plain = configFromEnv(ENV, { checkDir: () => null });
  assert.ok(plain.ok, plain.ok ? '' : plain.errors.join('\n'));
  assert.equal(plain.config.storage.dir, 'data/runs');
  const volume = configFromEnv({ ...ENV, COHERENCY_STORAGE_DIR: '/var/lib/coherency' }, { checkDir: () => null });
  assert.ok(volume.ok, volume.ok ? '' : volume.errors.join('\n'));
  assert.equal(volume.config.storage.dir, '/var/lib/coherency');
  const blocked = configFromEnv({ ...ENV, COHERENCY_STORAGE_DIR: '/ro' }, { checkDir: () => 'is on a read-only file system' });
  assert.deepEqual(blocked.ok ? [] : blocked.errors, [
    'COHERENCY_STORAGE_DIR: "/ro" is on a read-only file system (a config file\'s storage.dir wins over it; storage.dir: null keeps runs in memory only)',
  ]);
});
