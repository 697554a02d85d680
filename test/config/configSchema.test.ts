// The config JSON Schema is written from configSpec.ts, the declaration the validator reads.
// These tests keep the shipped file equal to the generator's output, check that editors
// (ajv here, as yaml-language-server does) accept the shipped configs and flag a bad key,
// and that the schema and check-config agree on every declared range and enum.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/cliIO.js';
import { configSchema, configSchemaText } from '../../src/config/configSchema.js';
import { CONFIG_SPEC, type FieldSpec } from '../../src/config/configSpec.js';
import { validateConfig } from '../../src/config/validateConfig.js';
import { repoPath } from '../helpers/repoRoot.js';

// strict: an unknown keyword or a bad pattern in the generated schema throws here
const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
const check = ajv.compile(configSchema());
const load = (path: string): unknown => parse(readFileSync(repoPath(path), 'utf8'));

test('config/coherency.schema.json is what npm run schema generates', () => {
  const committed = readFileSync(repoPath('config/coherency.schema.json'), 'utf8');
  assert.ok(committed === configSchemaText(), 'config/coherency.schema.json is stale: run npm run schema and commit it');
});

test('coherency-exporter schema prints the same schema', async () => {
  let out = '';
  const io: CliIO = {
    stdout: (s) => {
      out += s;
    },
    stderr: () => undefined,
    env: {},
  };
  assert.equal(await main(['schema'], io), 0);
  assert.equal(out, configSchemaText());
  assert.equal(JSON.parse(out).$schema, 'https://json-schema.org/draft/2020-12/schema');
});

describe('the schema on the shipped configs', () => {
  for (const path of ['config/example.yaml', 'config/coherency.yaml']) {
    test(`accepts ${path}`, () => {
      assert.ok(check(load(path)), JSON.stringify(check.errors, null, 2));
    });
  }

  test('example.yaml names the schema for yaml-language-server', () => {
    assert.match(readFileSync(repoPath('config/example.yaml'), 'utf8'), /^# yaml-language-server: \$schema=\.\/coherency\.schema\.json$/m);
  });

  test('rejects an unknown key, naming it and where it is', () => {
    const doc = load('config/example.yaml') as { targets: Record<string, unknown>[] };
    doc.targets[0]!['baseURL'] = 'http://127.0.0.1:8000/v1';
    assert.equal(check(doc), false);
    assert.ok(
      check.errors?.some(
        (e) => e.instancePath === '/targets/0' && e.keyword === 'additionalProperties' && e.params['additionalProperty'] === 'baseURL',
      ),
      JSON.stringify(check.errors),
    );
  });

  test('rejects a top-level typo, a missing required key and prompt together with messages', () => {
    assert.equal(check({ ...(load('config/coherency.yaml') as object), prober: [] }), false);
    assert.equal(check({ targets: [{ name: 'a', baseUrl: 'http://h/v1' }], probes: [{ name: 'p', prompt: 'hi', maxTokens: 1 }] }), false);
    const both = {
      targets: [{ name: 'a', baseUrl: 'http://h/v1', model: 'm' }],
      probes: [{ name: 'p', prompt: 'hi', messages: [{ role: 'user', content: 'hi' }], maxTokens: 1 }],
    };
    assert.equal(check(both), false);
  });

  test('probe kinds: recall and contamination probes have no prompt, and their keys belong to their kind only', () => {
    const doc = (probe: object) => ({
      targets: [{ name: 'a', baseUrl: 'http://h/v1', model: 'm' }],
      probes: [{ name: 'p', maxTokens: 100, ...probe }],
    });
    const agree = (probe: object, ok: boolean) => {
      assert.equal(check(doc(probe)), ok, `${JSON.stringify(probe)}: ${JSON.stringify(check.errors)}`);
      const r = validateConfig(doc(probe), {}, { checkDir: () => null, checkFile: () => null });
      assert.equal(r.ok, ok, `${JSON.stringify(probe)}: ${r.ok ? 'validator accepted' : r.errors.join('; ')}`);
    };
    agree({ kind: 'recall', facts: 3, positions: ['start', 'end'], minRecall: 0.5 }, true);
    agree({ kind: 'contamination', concurrency: 4, seed: 7 }, true);
    agree({ kind: 'recall', prompt: 'hi' }, false);
    agree({ kind: 'contamination', concurrency: 4, facts: 3 }, false);
    agree({ prompt: 'hi', facts: 3 }, false);
    agree({ prompt: 'hi', kind: 'generation', concurrency: 2 }, false);
    agree({ prompt: 'hi', expect: { keywords: ['replication'], minCoverage: 0.5 }, temperatures: [0, 0.6], logprobs: true }, true);
    agree({ prompt: 'hi', expect: { keyword: ['replication'] } }, false);
    agree({ prompt: 'hi', temperature: 0.2, temperatures: [0, 0.6] }, false);
  });

  test('rejects reserved headers whatever their case, and reserved body fields', () => {
    const doc = (headers: object, extraBody: object) => ({
      targets: [{ name: 'a', baseUrl: 'http://h/v1', model: 'm', headers }],
      probes: [{ name: 'p', prompt: 'hi', maxTokens: 1, extraBody }],
    });
    assert.equal(check(doc({ 'X-Ok': 'v' }, { top_p: 0.9 })), true, JSON.stringify(check.errors));
    assert.equal(check(doc({ 'content-TYPE': 'v' }, {})), false);
    assert.equal(check(doc({}, { max_tokens: 5 })), false);
  });
});

describe('the schema and check-config agree on declared ranges and enums', () => {
  type Obj = Record<string, unknown>;
  const base = () => ({
    targets: [{ name: 'a', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' } as Obj],
    probes: [{ name: 'p', prompt: 'hi', maxTokens: 100 } as Obj],
  });
  type Doc = ReturnType<typeof base> & Obj;
  /** A new empty mapping at `key` of `parent`, returned. */
  const fresh = (parent: Obj, key: string): Obj => {
    const section: Obj = {};
    parent[key] = section;
    return section;
  };
  // Where a field sits in a document: a section at the top level, or inside the first target or probe.
  const places: Record<string, (doc: Doc) => Obj> = {
    server: (d) => fresh(d, 'server'),
    simulator: (d) => fresh(d, 'simulator'),
    metrics: (d) => fresh(d, 'metrics'),
    storage: (d) => fresh(d, 'storage'),
    target: (d) => d.targets[0]!,
    probe: (d) => d.probes[0]!,
    timeouts: (d) => fresh(d.probes[0]!, 'timeouts'),
  };

  /** Values just inside and just outside a field's declaration. */
  function probesFor(f: FieldSpec): Array<[unknown, boolean]> {
    if (f.type === 'string' && f.enum)
      return [
        [f.enum[0], true],
        [`${f.enum[0]}x`, false],
        [1, false],
      ];
    if (f.type !== 'integer' && f.type !== 'number') return [];
    const out: Array<[unknown, boolean]> = [['1', false]];
    if (f.minimum !== undefined) out.push([f.minimum, true], [f.minimum - (f.type === 'integer' ? 1 : 0.5), false]);
    if (f.maximum !== undefined) out.push([f.maximum, true], [f.maximum + 1, false]);
    if (f.exclusiveMinimum !== undefined) out.push([f.exclusiveMinimum, false], [f.exclusiveMinimum + 0.5, true]);
    if (f.type === 'integer') out.push([(f.minimum ?? 1) + 0.5, false]);
    return out;
  }

  let compared = 0;
  for (const [section, place] of Object.entries(places)) {
    const fields = (CONFIG_SPEC as Record<string, { fields: Record<string, FieldSpec> }>)[section]!.fields;
    for (const [key, f] of Object.entries(fields)) {
      for (const [value, ok] of probesFor(f)) {
        compared++;
        test(`${section}.${key} = ${JSON.stringify(value)}: ${ok ? 'accepted' : 'refused'} by both`, () => {
          const doc: Doc = base();
          place(doc)[key] = value;
          // minTokens may not exceed maxTokens: a large probe value needs room.
          if (section === 'probe' && key === 'minTokens') doc.probes[0]!['maxTokens'] = 1e6;
          // a key of one probe kind only (facts: recall) is tried on a probe of that kind, which has no prompt
          if (f.onlyWhen) {
            doc.probes[0]![f.onlyWhen.key] = f.onlyWhen.values[0];
            delete doc.probes[0]!['prompt'];
          }
          if (section === 'probe' && key === 'kind' && value !== 'generation' && ok) delete doc.probes[0]!['prompt'];
          const r = validateConfig(doc, {}, { checkDir: () => null, checkFile: () => null });
          assert.equal(r.ok, ok, r.ok ? 'validator accepted' : r.errors.join('\n'));
          assert.equal(check(doc), ok, JSON.stringify(check.errors));
        });
      }
    }
  }
  test('covers the declared numbers and enums', () => assert.ok(compared > 50, String(compared)));
});

test('expect.keywords: the portable pattern accepts what the validator accepts, and refuses blanks and bare punctuation', () => {
  const doc = (keyword: string) => ({
    targets: [{ name: 'a', baseUrl: 'http://h/v1', model: 'm' }],
    probes: [{ name: 'p', prompt: 'hi', maxTokens: 100, expect: { keywords: [keyword] } }],
  });
  for (const keyword of ['hash table', 'B-tree', '数据库', 'é', '42', '  x  ']) {
    assert.ok(check(doc(keyword)), `${keyword}: ${JSON.stringify(check.errors)}`);
    assert.ok(validateConfig(doc(keyword), {}, { checkDir: () => null, checkFile: () => null }).ok, keyword);
  }
  for (const keyword of ['', '   ', '!!!', '-', '\t\n']) {
    assert.equal(check(doc(keyword)), false, JSON.stringify(keyword));
    assert.equal(validateConfig(doc(keyword), {}, { checkDir: () => null, checkFile: () => null }).ok, false, JSON.stringify(keyword));
  }
});
