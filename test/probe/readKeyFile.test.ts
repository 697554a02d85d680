// Key files are read without blocking: a FIFO, a device or a huge file is refused before a
// byte is read, with a reason that never quotes the content.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { KEY_FILE_MAX_BYTES, readKeyFile } from '../../src/probe/readKeyFile.js';

describe('readKeyFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-keyfile-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file', async () => {
    writeFileSync(join(dir, 'key'), 'sk-canary\n');
    assert.equal(await readKeyFile(join(dir, 'key')), 'sk-canary\n');
  });

  it('refuses a FIFO at once instead of blocking the process', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    await assert.rejects(readKeyFile(fifo), { code: 'is not a regular file' });
    assert.ok(Date.now() - started < 5000);
  });

  it('refuses a device and a directory', async () => {
    await assert.rejects(readKeyFile('/dev/zero'), { code: 'is not a regular file' });
    await assert.rejects(readKeyFile(dir), { code: 'is a directory, not a file' });
  });

  it('refuses a file larger than a key', async () => {
    writeFileSync(join(dir, 'big'), 'x'.repeat(KEY_FILE_MAX_BYTES + 1));
    await assert.rejects(readKeyFile(join(dir, 'big')), /more than a key/);
  });

  it('passes on a missing file as ENOENT', async () => {
    await assert.rejects(readKeyFile(join(dir, 'none')), { code: 'ENOENT' });
  });
});
