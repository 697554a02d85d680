import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateConfig } from '../../src/config/validateConfig.js';
import { probeExitCode } from '../../src/oneShot/exitCode.js';
import { configFromFlags, selectPairs } from '../../src/oneShot/probeFlags.js';
import { plainProgress, ttyProgress } from '../../src/oneShot/progressView.js';
import type { RunResult, SampleResult, SampleVerdict } from '../../src/probe/probeTypes.js';

const run = (...verdicts: SampleVerdict[]) =>
  ({ samples: verdicts.map((verdict, index) => ({ verdict, index })), verdict: verdicts[0] ?? 'error' }) as unknown as RunResult;
const sample = {
  index: 0,
  verdict: 'ok',
  outputTokens: 10,
  tokensPerSecond: 100,
  durationSeconds: 0.1,
  finishReason: 'stop',
  aborted: false,
} as unknown as SampleResult;

describe('probeExitCode', () => {
  it('0 passed, 1 failed (or warned with --fail-on warn), 3 an error and nothing failed', () => {
    assert.equal(probeExitCode([run('ok', 'ok')], 'fail'), 0);
    assert.equal(probeExitCode([run('ok', 'warn')], 'fail'), 0);
    assert.equal(probeExitCode([run('ok', 'warn')], 'warn'), 1);
    assert.equal(probeExitCode([run('error'), run('fail')], 'fail'), 1);
    assert.equal(probeExitCode([run('error'), run('ok')], 'fail'), 3);
    assert.equal(probeExitCode([run()], 'fail'), 3);
  });
});

describe('configFromFlags', () => {
  it('builds one target and one probe through the validator, errors named by flag', () => {
    const ok = configFromFlags({ 'base-url': 'http://127.0.0.1:1/v1', model: 'm', 'max-tokens': '300' }, {}, null);
    assert.ok(ok.ok);
    assert.equal(ok.config.probes[0]!.maxTokens, 300);
    const fromEnv = configFromFlags({}, { OPENAI_BASE_URL: 'http://h/v1', OPENAI_MODEL: 'x', OPENAI_API_KEY: 'k' }, null);
    assert.ok(fromEnv.ok);
    assert.equal(fromEnv.config.targets[0]!.apiKeyEnv, 'OPENAI_API_KEY');
    const bad = configFromFlags({ 'base-url': 'http://h/v1', model: 'm', 'max-tokens': 'lots', temperature: '-3' }, {}, null);
    assert.ok(!bad.ok);
    assert.ok(
      bad.errors.some((e) => e.startsWith('--max-tokens:')),
      bad.errors.join('\n'),
    );
    assert.ok(
      bad.errors.some((e) => e.startsWith('--temperature:')),
      bad.errors.join('\n'),
    );
    const responses = configFromFlags({ 'base-url': 'http://h/v1', model: 'm', api: 'responses' }, {}, null);
    assert.ok(responses.ok);
    assert.equal(responses.config.targets[0]!.api, 'responses');
    const wrongApi = configFromFlags({ 'base-url': 'http://h/v1', model: 'm', api: 'embeddings' }, {}, null);
    assert.ok(!wrongApi.ok);
    assert.match(wrongApi.errors.join('\n'), /^--api: must be one of chat, completions, responses/m);
    // a conformance probe speaks the target's API (it was refused on another than chat)
    const conformance = configFromFlags({ 'base-url': 'http://h/v1', model: 'm', api: 'completions', kind: 'conformance' }, {}, null);
    assert.ok(conformance.ok, conformance.ok ? '' : conformance.errors.join('\n'));
    assert.equal(conformance.config.targets[0]!.api, 'completions');
    // --expect-language is probes[0].expect.language, its error named by the flag
    const language = configFromFlags({ 'base-url': 'http://h/v1', model: 'm', 'expect-language': 'ko' }, {}, null);
    assert.ok(language.ok);
    assert.equal(language.config.probes[0]!.expect?.language, 'ko');
    const badLanguage = configFromFlags({ 'base-url': 'http://h/v1', model: 'm', 'expect-language': 'korean' }, {}, null);
    assert.ok(!badLanguage.ok);
    assert.match(badLanguage.errors.join('\n'), /^--expect-language: must be an ISO 639-1 code the language identifier knows/m);
    const missing = configFromFlags({}, {}, null);
    assert.ok(!missing.ok);
    assert.equal(missing.errors.length, 2);
  });

  it('selectPairs honours targets[].probes and --target/--probe', () => {
    const c = validateConfig(
      {
        targets: [
          { name: 'a', baseUrl: 'http://h/v1', model: 'm' },
          { name: 'b', baseUrl: 'http://h/v1', model: 'm', probes: ['q'] },
        ],
        probes: [
          { name: 'p', prompt: 'hi', maxTokens: 300 },
          { name: 'q', prompt: 'hi', maxTokens: 300 },
        ],
      },
      {},
    );
    assert.ok(c.ok, c.ok ? '' : c.errors.join('\n'));
    const all = selectPairs(c.config, [], []);
    assert.ok(all.ok);
    assert.deepEqual(
      all.pairs.map((x) => `${x.target}/${x.probe}`),
      ['a/p', 'a/q', 'b/q'],
    );
    const some = selectPairs(c.config, ['b'], ['q']);
    assert.ok(some.ok);
    assert.equal(some.pairs.length, 1);
    assert.ok(!selectPairs(c.config, ['b'], ['p']).ok);
    assert.ok(!selectPairs(c.config, ['zz'], []).ok);
  });
});

describe('progress views', () => {
  it('off a TTY: one line at start and end, no carriage returns', () => {
    let out = '';
    const v = plainProgress((s) => (out += s));
    v.started('k', 't', 'p', 0, 100);
    v.progress('k', 5, 0.1);
    v.finished('k', 't', 'p', sample);
    assert.equal(out.split('\n').length, 3);
    assert.ok(!out.includes('\r'));
  });

  it('on a TTY: the live line is redrawn in place and erased when the sample ends', async () => {
    let out = '';
    const v = ttyProgress((s) => (out += s));
    v.started('k', 't', 'p', 0, 100);
    v.progress('k', 42, 1);
    await new Promise((r) => setTimeout(r, 250));
    assert.match(out, /\x1b\[1A\r\x1b\[2Kt\/p #0 {2}42\/100 tokens {2}42 tokens\/s/);
    v.state('k', 'aborted: the output collapsed');
    v.finished('k', 't', 'p', sample);
    v.close();
    assert.match(out, /t\/p #0: OK \(10 tokens/);
  });
});
