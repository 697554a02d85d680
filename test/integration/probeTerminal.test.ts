// `coherency-exporter probe` on a pseudo-terminal (util-linux `script`): the live line is redrawn in
// place while a slow stream runs, and shows what the live check suspects before it aborts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator } from '../../src/simulator/index.js';
import { CLI, ensureBuilt, runCommand } from '../helpers/integrationProcess.js';

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_')));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('probe command on a terminal', { timeout: 60_000 }, () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  before(async () => {
    ensureBuilt();
    // slow enough for several redraws (every 100 ms) before and after the collapse starts
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 600 });
  });
  after(() => sim?.close());

  it('redraws the live line, names the suspected loop with its token before the abort', async () => {
    const args = [CLI, 'probe', '--base-url', sim.url, '--model', 'collapse-sentence@400', '--max-tokens', '3000'];
    const line = [process.execPath, ...args].map(quote).join(' ');
    const r = await runCommand('script', ['-qefc', line, '/dev/null'], {
      timeoutMs: 40_000,
      env: { ...env, TERM: 'xterm', COLUMNS: '200' },
    });
    const out = r.stdout;
    assert.equal(r.code, 1, out);
    const redraws = out.split('\r\x1b[2K').length - 1;
    assert.ok(redraws >= 5, `expected the live line to be redrawn in place, saw ${redraws} redraws:\n${out}`);
    assert.match(out, /cli\/probe #0 {2}\d+\/3000 tokens {2}\d+ tokens\/s {2}[\d.]+ s {2}sentence loop suspected at token \d+/);
    assert.match(out, /cli\/probe #0: FAIL \(\d+ tokens, .*aborted at \d+ tokens/);
  });
});
