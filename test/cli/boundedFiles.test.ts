// Files named on the command line are read bounded (issue 34, part 6): `probe --baseline`
// read a file whole before looking at its 64 MiB limit (654 MB of memory for 600 MB, no end
// for /dev/zero), and a FIFO blocked it for ever. Each case runs the CLI as a child process,
// bounded in time, and reports its peak memory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, ensureBuilt, makeTempDir, runCommand } from '../helpers/integrationProcess.js';

/** Prints the peak RSS (KiB) on the child's standard error as it exits. */
const PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\npeak-rss-kib='+process.resourceUsage().maxRSS+'\\n'))`;

async function cli(args: string[]): Promise<{ code: number | null; signal: string | null; err: string; peakMiB: number }> {
  const r = await runCommand(process.execPath, ['--import', PEAK, CLI, ...args], { timeoutMs: 15_000 });
  const peak = /peak-rss-kib=(\d+)/.exec(r.stderr);
  return { code: r.code, signal: r.signal, err: r.stderr, peakMiB: peak ? Number(peak[1]) / 1024 : Number.NaN };
}

describe('files named on the command line are read bounded', { timeout: 120_000 }, () => {
  const tmp = makeTempDir('bounded-files');
  after(() => tmp.remove());
  const fifo = join(tmp.dir, 'pipe.json');
  const big = join(tmp.dir, 'big.json');
  const endpoint = ['probe', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'];

  it('probe --baseline: a FIFO, /dev/zero and a file over 64 MiB end at once with an error naming the file and why', async () => {
    ensureBuilt();
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    writeFileSync(big, '');
    truncateSync(big, 600 * 1024 * 1024); // sparse: no disk used
    const cases: [string, RegExp][] = [
      [fifo, /^error: --baseline .*pipe\.json: cannot read it: is a named pipe \(FIFO\), not a regular file$/m],
      ['/dev/zero', /^error: --baseline \/dev\/zero: cannot read it: is a device, not a regular file$/m],
      [big, /^error: --baseline .*big\.json: larger than 67108864 bytes: not a baseline$/m],
    ];
    for (const [file, want] of cases) {
      const started = performance.now();
      const r = await cli([...endpoint, '--baseline', file]);
      const ms = performance.now() - started;
      assert.equal(r.signal, null, `${file}: still running after 15 s`);
      assert.equal(r.code, 2, `${file}: ${r.err}`);
      assert.match(r.err, want);
      assert.ok(r.peakMiB < 150, `${file}: peak RSS ${r.peakMiB.toFixed(0)} MiB`);
      assert.ok(ms < 10_000, `${file}: ${ms} ms`);
    }
  });

  it('--config, --prompt-file and analyze FILE refuse a FIFO and /dev/zero the same way', async () => {
    const cases: [string[], RegExp][] = [
      [['check-config', fifo], /pipe\.json: is a named pipe \(FIFO\), not a regular file: not a config file/],
      [['check-config', '/dev/zero'], /\/dev\/zero: is a device, not a regular file: not a config file/],
      [[...endpoint, '--prompt-file', '/dev/zero'], /--prompt-file: cannot read \/dev\/zero: is a device, not a regular file/],
      [[...endpoint, '--prompt-file', fifo], /--prompt-file: cannot read .*pipe\.json: is a named pipe/],
      [['analyze', fifo], /cannot read .*pipe\.json: is a named pipe/],
      [['analyze', '/dev/zero'], /cannot read \/dev\/zero: is a device/],
    ];
    for (const [args, want] of cases) {
      const r = await cli(args);
      assert.equal(r.signal, null, `${args.join(' ')}: still running after 15 s`);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, want);
      assert.ok(r.peakMiB < 150, `${args.join(' ')}: peak RSS ${r.peakMiB.toFixed(0)} MiB`);
    }
  });
});
