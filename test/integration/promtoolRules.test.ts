// Issue 5 §1: `promtool check rules` and `promtool test rules` on the shipped alert rules, so
// that `npm test` (and CI through it) runs them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { requireTool, ROOT, runCommand } from '../helpers/integrationProcess.js';

const RULES = join('deploy', 'prometheus', 'rules.yml');
const RULE_TESTS = join('deploy', 'prometheus', 'rules.test.yml');

describe('alert rules under promtool', { timeout: 60_000 }, () => {
  it(`promtool check rules ${RULES} passes`, async (t) => {
    const tool = requireTool('promtool');
    if (tool.skip !== null) return t.skip(tool.skip);
    const result = await runCommand(tool.path, ['check', 'rules', join(ROOT, RULES)]);
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
    assert.match(result.stdout, /SUCCESS: \d+ rules found/, result.stdout);
  });

  it(`promtool test rules ${RULE_TESTS} passes`, async (t) => {
    const tool = requireTool('promtool');
    if (tool.skip !== null) return t.skip(tool.skip);
    // rules.test.yml names rules.yml relative to itself; promtool resolves it from the file's folder.
    const result = await runCommand(tool.path, ['test', 'rules', join(ROOT, RULE_TESTS)]);
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
    assert.match(result.stdout, /SUCCESS/, result.stdout);
  });
});
