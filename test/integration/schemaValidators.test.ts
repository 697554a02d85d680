// Issue 21 §5: the shipped JSON Schema works beyond JavaScript. Its patterns keep to what every
// JSON Schema 2020-12 validator reads (no \p{..} classes, lookarounds, named groups or
// backreferences: Python's re, and so the check-jsonschema pre-commit hook, refused
// `[\p{L}\p{N}]` and with it the whole schema). Python's jsonschema (Debian's python3-jsonschema)
// checks the schema against its metaschema, formats included (every pattern must compile as a
// regex), accepts the shipped configs and refuses a config with an unknown key; ajv (draft 2020)
// does the same in test/config/configSchema.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { requirePythonJsonschema } from '../helpers/integrationProcess.js';
import { repoPath } from '../helpers/repoRoot.js';

const SCHEMA = 'config/coherency.schema.json';
const CONFIGS = ['config/coherency.yaml', 'config/example.yaml'];

/** Every "pattern" in the schema, with where it is. */
function patterns(node: unknown, at = '#'): { at: string; pattern: string }[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => patterns(v, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    k === 'pattern' && typeof v === 'string' ? [{ at: `${at}/pattern`, pattern: v }] : patterns(v, `${at}/${k}`),
  );
}

// Read by Python: the schema, then a JSON list of [name, document, should-pass]; prints one line per document.
const PY = `
import json, sys
from jsonschema import Draft202012Validator, FormatChecker
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema, format_checker=FormatChecker())
for name, doc, _ in json.load(sys.stdin):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    print(name, "valid" if not errors else "invalid: " + "; ".join(e.message for e in errors[:3]))
`;

describe('the config schema in validators other than ajv', () => {
  const schema = JSON.parse(readFileSync(repoPath(SCHEMA), 'utf8')) as unknown;

  it('uses no regex feature outside the portable subset', () => {
    const found = patterns(schema);
    assert.ok(found.length >= 5, 'the schema has patterns');
    for (const { at, pattern } of found) {
      assert.doesNotMatch(pattern, /\\[pP]\{|\(\?<?[=!]|\(\?<\w|\\k<|\\[1-9]/, `${at}: ${pattern}`);
    }
  });

  it("Python's jsonschema accepts the schema, validates the shipped configs and refuses an unknown key", (t) => {
    const python = requirePythonJsonschema();
    if (python.skip !== null) return t.skip(python.skip);
    const docs: [string, unknown, boolean][] = CONFIGS.map((p) => [p, parse(readFileSync(repoPath(p), 'utf8')), true]);
    const typo = structuredClone(docs[0]![1]) as { targets: Record<string, unknown>[] };
    typo.targets[0]!['baseURL'] = 'http://127.0.0.1:8000/v1';
    docs.push(['a-typo', typo, false]);
    const r = spawnSync(python.path, ['-c', PY, repoPath(SCHEMA)], { input: JSON.stringify(docs), encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `${python.path} exited ${String(r.status)}:\n${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(' ').slice(0, 2).join(' ').replace(/:$/, '')),
      docs.map(([name, , valid]) => `${name} ${valid ? 'valid' : 'invalid'}`),
      r.stdout,
    );
    assert.match(lines[2] ?? '', /'baseURL' was unexpected/);
  });
});
