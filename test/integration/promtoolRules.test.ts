// Issue 5 §1: `promtool check rules` and `promtool test rules` on the shipped alert rules, so
// that `npm test` (and CI through it) runs them.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setRunbookBase } from '../../scripts/build-prometheus-rule.js';
import { makeTempDir, requireTool, ROOT, runCommand } from '../helpers/integrationProcess.js';

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

  it('--runbook-base moves every runbook_url of the rules and their tests, and promtool still passes', async (t) => {
    const tool = requireTool('promtool');
    if (tool.skip !== null) return t.skip(tool.skip);
    const base = 'https://wiki.example.org/ops/coherency-runbook.md';
    const tmp = makeTempDir('runbook-base');
    try {
      for (const file of [RULES, RULE_TESTS]) {
        const text = setRunbookBase(readFileSync(join(ROOT, file), 'utf8'), base);
        const urls = [...text.matchAll(/runbook_url: "([^"]*)"/g)].map((m) => m[1] as string);
        assert.ok(urls.length > 0, file);
        for (const url of urls) assert.match(url, /^https:\/\/wiki\.example\.org\/ops\/coherency-runbook\.md#coherency[a-z]+$/, file);
        writeFileSync(join(tmp.dir, file.split('/').pop() as string), text);
      }
      assert.throws(() => setRunbookBase('runbook_url: "https://a.example/r.md#x"', 'http://plain.example/r.md'), /https URL/);
      const result = await runCommand(tool.path, ['test', 'rules', join(tmp.dir, 'rules.test.yml')]);
      assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
    } finally {
      tmp.remove();
    }
  });
});
