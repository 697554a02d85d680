/** probes[].verdict and probes[].verdictModel: read, checked at load, passed to the analyzer, left out of the redacted copy. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/loadConfig.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import { redactConfig } from '../../src/config/redactConfig.js';
import { DEFAULT_VERDICT_MODEL } from '../../src/core/defaultVerdictModel.js';
import { verdictOptions } from '../../src/probe/judgeSample.js';

const TARGETS = 'targets:\n  - {name: local, baseUrl: "http://127.0.0.1:8000/v1", model: m}\n';
const probe = (fields: string): string =>
  `${TARGETS}probes:\n  - {name: short, prompt: hi, maxTokens: 100${fields ? `, ${fields}` : ''}}\n`;

describe('probes[].verdict', () => {
  it('defaults to the rules and the committed model', () => {
    const r = parseConfig(probe(''), { env: {} });
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
    const p = r.config.probes[0]!;
    assert.equal(p.verdict, 'rules');
    assert.equal(p.verdictModel, null);
    assert.deepEqual(verdictOptions(p), { verdict: 'rules', score: true });
  });

  it('takes learned, and refuses anything else naming the key', () => {
    const r = parseConfig(probe('verdict: learned'), { env: {} });
    assert.ok(r.ok);
    assert.equal(r.config.probes[0]!.verdict, 'learned');
    const bad = parseConfig(probe('verdict: model'), { env: {} });
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.errors.join('\n'), /probes\[0\]\.verdict: must be rules or learned/);
  });
});

describe('probes[].verdictModel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-config-'));
  const good = join(dir, 'model.json');
  writeFileSync(good, JSON.stringify(DEFAULT_VERDICT_MODEL));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ ...DEFAULT_VERDICT_MODEL, threshold: 2 }));
  const config = join(dir, 'coherency.yaml');

  it('round trips from a file: the path kept, the model read and passed to the analyzer, the weights left out of the redacted copy', async () => {
    writeFileSync(config, probe(`verdict: learned, verdictModel: ${JSON.stringify(good)}`));
    const r = await loadConfig(config, {});
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
    const p = r.config.probes[0]!;
    assert.equal(p.verdictModel, good);
    assert.deepEqual(p.learnedModel, DEFAULT_VERDICT_MODEL);
    assert.deepEqual(verdictOptions(p), { verdict: 'learned', score: true, verdictModel: DEFAULT_VERDICT_MODEL });
    const shown = redactConfig(r.config).probes[0]!;
    assert.equal(shown.verdictModel, good);
    assert.equal(shown.learnedModel, undefined);
  });

  it('names the key and the file when the file is missing or not a model', async () => {
    const missing = join(dir, 'missing.json');
    for (const [file, message] of [
      [missing, /probes\[0\]\.verdictModel: .*missing\.json: no such file/],
      [bad, /probes\[0\]\.verdictModel: .*bad\.json: verdict model: threshold must be a probability from 0 to 1, got 2/],
    ] as const) {
      writeFileSync(config, probe(`verdictModel: ${JSON.stringify(file)}`));
      const r = await loadConfig(config, {});
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.errors.join('\n'), message);
    }
  });
});
