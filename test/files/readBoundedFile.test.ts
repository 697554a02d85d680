import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileRefused, openBoundedFileSync, readAtMostSync, readBoundedFile } from '../../src/files/readBoundedFile.js';

const dir = mkdtempSync(join(tmpdir(), 'coherency-bounded-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const refused = (code: string, message: RegExp) => (err: unknown) =>
  err instanceof FileRefused && err.code === code && message.test(err.message);

describe('readBoundedFile', () => {
  const file = join(dir, 'ok.txt');
  writeFileSync(file, 'hello');
  const fifo = join(dir, 'pipe');
  spawnSync('mkfifo', [fifo]);
  const link = join(dir, 'link');
  symlinkSync(file, link);
  const big = join(dir, 'big');
  writeFileSync(big, '');
  truncateSync(big, 1000);

  it('reads a regular file within the bound, following a link unless told not to', async () => {
    assert.equal((await readBoundedFile(file, { maxBytes: 5 })).toString(), 'hello');
    assert.equal((await readBoundedFile(link, { maxBytes: 100 })).toString(), 'hello');
    await assert.rejects(readBoundedFile(link, { maxBytes: 100, noFollow: true }), refused('ELOOP', /symbolic link/));
  });

  it('refuses a FIFO, a device, a directory, a missing file and one over the bound, naming why', async () => {
    await assert.rejects(readBoundedFile(fifo, { maxBytes: 100 }), refused('NOT_REGULAR', /named pipe \(FIFO\)/));
    await assert.rejects(readBoundedFile('/dev/zero', { maxBytes: 100 }), refused('NOT_REGULAR', /is a device/));
    await assert.rejects(readBoundedFile(dir, { maxBytes: 100 }), refused('EISDIR', /is a directory/));
    await assert.rejects(readBoundedFile(join(dir, 'none'), { maxBytes: 100 }), refused('ENOENT', /no such file/));
    await assert.rejects(
      readBoundedFile(big, { maxBytes: 999 }),
      (err: unknown) => err instanceof FileRefused && err.code === 'TOO_LARGE' && err.detail.size === 1000,
    );
    assert.equal((await readBoundedFile(big, { maxBytes: 1000 })).length, 1000);
  });

  it('the synchronous open checks the descriptor the same way, and reads at most what it is asked', () => {
    assert.throws(() => openBoundedFileSync(fifo, { maxBytes: 100 }), refused('NOT_REGULAR', /named pipe/));
    assert.throws(() => openBoundedFileSync('/dev/zero', { maxBytes: 100 }), refused('NOT_REGULAR', /device/));
    const { fd, size } = openBoundedFileSync(big, { maxBytes: 1000 });
    try {
      assert.equal(size, 1000);
      assert.equal(readAtMostSync(fd, 990, 100).length, 10);
    } finally {
      closeSync(fd);
    }
  });
});
