import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Comparison } from '../../src/baseline/compareBaselines.js';
import { gateExitCode } from '../../src/oneShot/baselineGate.js';

test('gateExitCode: 1 regressed, 3 more errors and nothing worse, else 0', () => {
  const c = (regressed: boolean, errorsRose: boolean) => ({ regressed, errorsRose }) as Comparison;
  assert.equal(gateExitCode(c(true, true)), 1);
  assert.equal(gateExitCode(c(true, false)), 1);
  assert.equal(gateExitCode(c(false, true)), 3);
  assert.equal(gateExitCode(c(false, false)), 0);
});
