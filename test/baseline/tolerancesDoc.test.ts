import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TOLERANCE_ROWS } from '../../src/baseline/tolerances.js';
import { repoPath } from '../helpers/repoRoot.js';

test('docs/baselines.md gives every tolerance its flag and default', () => {
  const doc = readFileSync(repoPath('docs/baselines.md'), 'utf8');
  for (const r of [...TOLERANCE_ROWS, { flag: 'fail-on-divergence', default: 'off' }]) {
    const row = doc.split('\n').find((l) => l.startsWith(`| \`--${r.flag}`));
    assert.ok(row, `no row for --${r.flag}`);
    const cell = row.split(' | ')[1]!.trim();
    assert.equal(cell, r.default === null ? 'none' : `\`${r.default}\``.replace('`off`', 'off'), `--${r.flag}`);
  }
});
