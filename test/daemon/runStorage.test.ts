// Issue 39: runs are kept on disk by default. A default directory that cannot be made (a read-only
// working directory) is a warning and memory only; a directory the user named was checked when
// the config was read, and stands.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { runStorageDir } from '../../src/daemon/runStorage.js';
import { captureLogger } from '../helpers/captureLogger.js';

const readOnly = () => 'cannot be created: /app is on a read-only file system';

test('the default dir that cannot be made: a warning naming it and what to set, then memory only', () => {
  const log = captureLogger();
  assert.equal(runStorageDir('data/runs', log.logger, readOnly), null);
  assert.match(log.text(), /the default run storage \\?"data\/runs\\?" cannot be created: \/app is on a read-only file system/);
  assert.match(log.text(), /kept in memory only and lost at restart; set storage.dir \(or COHERENCY_STORAGE_DIR\)/);
  assert.match(log.text(), /"level":40/);
});

test('the default dir that works, a named dir and null: absolute path, unchecked, memory only', () => {
  const log = captureLogger();
  assert.equal(
    runStorageDir('data/runs', log.logger, () => null),
    resolve('data/runs'),
  );
  assert.equal(runStorageDir('/srv/runs', log.logger, readOnly), '/srv/runs', 'checked when the config was read, not here');
  assert.equal(runStorageDir(null, log.logger, readOnly), null);
  assert.equal(log.text(), '');
});
