// Issue 39: the run page leads with the verdict, the reasons and the output with its marks;
// the figures follow, and the target's fingerprint goes last, folded when it is empty.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeFingerprint } from '../../src/fingerprint/normalizeFingerprint.js';
import { renderRun } from '../../src/http/renderRun.js';
import type { SampleResult } from '../../src/probe/probeTypes.js';
import { testRun, testSample } from '../helpers/testConfig.js';

const sample = (): SampleResult =>
  testSample({ verdict: 'fail', reasons: ['content: sentence_loop from token 40'], finishReason: 'length' });

const NOW = Date.parse('2026-01-01T00:01:00Z');
const empty = normalizeFingerprint({ served: [], modelEntry: null, info: null, unavailable: ['info: none answered'] });
const full = normalizeFingerprint({
  served: [{ model: 'qwen3-32b', systemFingerprint: 'fp_1', headers: { server: 'uvicorn' } }],
  modelEntry: null,
  info: null,
  unavailable: [],
});

describe('the run page', () => {
  test('verdict, reasons, output, figures, fingerprint: in that order', () => {
    const page = renderRun(testRun('r1', [sample()], { fingerprint: full }), NOW);
    const at = (s: string) => {
      const i = page.indexOf(s);
      assert.ok(i >= 0, `the page has ${s}`);
      return i;
    };
    const order = [
      at('<h1>Run'),
      at('content: sentence_loop from token 40'),
      at('<pre class="output" id="s0-content">'),
      at('<h3>Figures</h3>'),
      at('Target fingerprint'),
    ];
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
    assert.match(page, /<a href="#s0-figures">Figures<\/a>/);
    assert.match(page, /<details class="fingerprint" open>/, 'what the target said is shown');
  });

  test('a fingerprint with nothing read is folded, and says so', () => {
    const page = renderRun(testRun('r2', [sample()], { fingerprint: empty }), NOW);
    assert.match(
      page,
      /<details class="fingerprint"><summary><h2>Target fingerprint<\/h2> <span class="muted">\(the target said nothing about itself\)/,
    );
    assert.ok(page.includes('info: none answered'), 'what could not be read is still in the fold');
  });
});
