import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../src/config/parseConfig.js';

const T = 'targets:\n  - {name: local, baseUrl: "http://127.0.0.1:8000/v1", model: m}\n';
const parse = (probe: string) => parseConfig(`${T}probes:\n  - {name: p, maxTokens: 200, ${probe}}\n`, { env: {} });

test('kind defaults to generation (no kind field); recall and contamination get their defaults', () => {
  const g = parse('prompt: hi');
  assert.ok(g.ok);
  assert.equal(g.config.probes[0]!.kind, undefined);
  assert.equal(g.config.probes[0]!.recall, undefined);
  const r = parse('kind: recall');
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  assert.deepEqual(r.config.probes[0]!.recall, {
    conversationTokens: 8000,
    facts: 5,
    positions: ['start', 'middle', 'end'],
    seed: 1,
    minRecall: 0.5,
  });
  assert.deepEqual(r.config.probes[0]!.messages, []);
  const c = parse('kind: contamination, concurrency: 6, seed: 9');
  assert.ok(c.ok);
  assert.deepEqual(c.config.probes[0]!.contamination, { concurrency: 6, seed: 9 });
});

test('recall settings are read and checked', () => {
  const r = parse('kind: recall, conversationTokens: 16000, facts: 3, positions: [end, start], seed: 4, minRecall: 0.8');
  assert.ok(r.ok);
  assert.deepEqual(r.config.probes[0]!.recall, {
    conversationTokens: 16000,
    facts: 3,
    positions: ['end', 'start'],
    seed: 4,
    minRecall: 0.8,
  });
  const bad = parse('kind: recall, conversationTokens: 10, facts: 0, positions: [top], minRecall: 2, prompt: hi');
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.ok ? [] : bad.errors, [
    'probes[0].conversationTokens: must be an integer from 1000 to 1000000',
    'probes[0].facts: must be an integer from 1 to 20',
    'probes[0].positions: must be a non-empty list of start, middle, end (each at most once)',
    'probes[0].minRecall: must be a number from 0 to 1 (the share of facts recalled under which a sample fails)',
    'probes[0]: a recall probe builds its own messages: leave out prompt and messages',
  ]);
});

test('a key of another kind, an unknown kind and a missing prompt on a generation probe are refused', () => {
  const r = parse('prompt: hi, facts: 3, concurrency: 2');
  assert.equal(r.ok, false);
  assert.deepEqual(r.ok ? [] : r.errors, [
    'probes[0].facts: applies to kind recall only (this probe is kind generation)',
    'probes[0].concurrency: applies to kind contamination only (this probe is kind generation)',
  ]);
  const k = parse('kind: memory, prompt: hi');
  assert.deepEqual(k.ok ? [] : k.errors, ['probes[0].kind: must be one of generation, recall, contamination, conformance, golden']);
  const c = parse('kind: contamination, concurrency: 1');
  assert.deepEqual(c.ok ? [] : c.errors, ['probes[0].concurrency: must be an integer from 2 to 32']);
  const g = parse('temperature: 0.6');
  assert.deepEqual(g.ok ? [] : g.errors, ['probes[0]: set either prompt or messages']);
});

test('CONFIG_KEYS.probe lists every key the probe kinds read', async () => {
  const { CONFIG_KEYS } = await import('../../src/config/validateConfig.js');
  const { PROBE_KIND_CONFIG_KEYS } = await import('../../src/config/validateProbeKind.js');
  for (const key of PROBE_KIND_CONFIG_KEYS) assert.ok((CONFIG_KEYS.probe as readonly string[]).includes(key), key);
});

test('a conformance probe: every check by default, the checks asked for in their order, keys it cannot use refused', () => {
  const d = parse('kind: conformance');
  assert.ok(d.ok, d.ok ? '' : d.errors.join('\n'));
  assert.deepEqual(d.config.probes[0]!.conformance, {
    checks: ['models', 'chat', 'fields', 'reasoning', 'tools', 'streaming', 'limits', 'auth'],
  });
  assert.deepEqual(d.config.probes[0]!.messages, []);
  const some = parse('kind: conformance, checks: [streaming, models]');
  assert.ok(some.ok);
  assert.deepEqual(some.config.probes[0]!.conformance?.checks, ['models', 'streaming']);
  const bad = parse('kind: conformance, checks: [models, speed], samples: 3, minTokens: 5, logprobs: true, prompt: hi');
  assert.deepEqual(bad.ok ? [] : bad.errors, [
    'probes[0].samples: does not apply to a conformance probe (it sends its own fixed requests, once per run): leave it out',
    'probes[0].minTokens: does not apply to a conformance probe (it sends its own fixed requests, once per run): leave it out',
    'probes[0].logprobs: does not apply to a conformance probe (it sends its own fixed requests, once per run): leave it out',
    'probes[0].checks: must be a non-empty list of models, chat, fields, reasoning, tools, streaming, limits, auth (each at most once); unknown: "speed"',
    'probes[0]: a conformance probe builds its own messages: leave out prompt and messages',
  ]);
  const dup = parse('kind: conformance, checks: [auth, auth]');
  assert.equal(dup.ok, false);
  const other = parse('prompt: hi, checks: [auth]');
  assert.deepEqual(other.ok ? [] : other.errors, ['probes[0].checks: applies to kind conformance only (this probe is kind generation)']);
});

test('targets[].modelAliases and reasoning are read and checked', () => {
  const ok = parseConfig(
    'targets:\n  - {name: t, baseUrl: "http://127.0.0.1:8000/v1", model: m, modelAliases: [m2, m-2024-01-01], reasoning: true}\nprobes:\n  - {name: p, kind: conformance, maxTokens: 64}\n',
    { env: {} },
  );
  assert.ok(ok.ok, ok.ok ? '' : ok.errors.join('\n'));
  assert.deepEqual([ok.config.targets[0]!.modelAliases, ok.config.targets[0]!.reasoning], [['m2', 'm-2024-01-01'], true]);
  const bad = parseConfig(
    'targets:\n  - {name: t, baseUrl: "http://127.0.0.1:8000/v1", model: m, modelAliases: [a, a, ""], reasoning: maybe}\nprobes:\n  - {name: p, kind: conformance, maxTokens: 64}\n',
    { env: {} },
  );
  assert.deepEqual(bad.ok ? [] : bad.errors, [
    'targets[0].modelAliases[1]: duplicate of "a"',
    'targets[0].modelAliases[2]: must be a model name (a non-empty string)',
    'targets[0].reasoning: must be true (the model reasons), false (it does not) or null (detect it from its first answer)',
  ]);
});

test('a golden probe: every task by default, in their order; temperature 0 unless the file sets one; keys checked', () => {
  const g = parse('kind: golden');
  assert.ok(g.ok, g.ok ? '' : g.errors.join('\n'));
  const probe = g.config.probes[0]!;
  assert.deepEqual(probe.golden, { tasks: ['arithmetic', 'copy', 'count', 'sort', 'lookup'], seed: 1 });
  assert.equal(probe.temperature, 0);
  assert.deepEqual(probe.messages, []);
  const set = parse('kind: golden, tasks: [sort, copy], seed: 5, temperature: 0.3');
  assert.ok(set.ok);
  assert.deepEqual(set.config.probes[0]!.golden, { tasks: ['copy', 'sort'], seed: 5 });
  assert.equal(set.config.probes[0]!.temperature, 0.3);
  // a generation probe keeps the usual default
  const gen = parse('prompt: hi');
  assert.ok(gen.ok);
  assert.equal(gen.config.probes[0]!.temperature, 0.6);
  const bad = parse('kind: golden, tasks: [riddles], prompt: hi');
  assert.deepEqual(bad.ok ? [] : bad.errors, [
    'probes[0].tasks: must be a non-empty list of arithmetic, copy, count, sort, lookup (each at most once); unknown: "riddles"',
    'probes[0]: a golden probe builds its own messages: leave out prompt and messages',
  ]);
  const other = parse('prompt: hi, tasks: [copy]');
  assert.deepEqual(other.ok ? [] : other.errors, ['probes[0].tasks: applies to kind golden only (this probe is kind generation)']);
});

test('a conformance probe runs on a target of any api: chat, completions and responses alike', () => {
  // refused until the checks spoke completions and responses (a config error naming targets[N].api)
  const c = parseConfig(
    `targets:
  - {name: base, baseUrl: "http://127.0.0.1:8000/v1", model: m, api: completions}
  - {name: resp, baseUrl: "http://127.0.0.1:8000/v1", model: m, api: responses, probes: [short, check]}
  - {name: chat, baseUrl: "http://127.0.0.1:8000/v1", model: m}
probes:
  - {name: short, prompt: hi, maxTokens: 16}
  - {name: check, kind: conformance, maxTokens: 64}
`,
    { env: {} },
  );
  assert.ok(c.ok, c.ok ? '' : c.errors.join('\n'));
  assert.deepEqual(
    c.config.targets.map((t) => t.api),
    ['completions', 'responses', 'chat'],
  );
});
