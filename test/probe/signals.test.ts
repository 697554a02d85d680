import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { streamChat } from '../../src/client/streamChat.js';
import { samplePlan } from '../../src/probe/kinds/generationKind.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { judgeSample } from '../../src/probe/judgeSample.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { initSeries, recordSample } from '../../src/metrics/recordRun.js';
import { countHeadings, keywordCoverage, stem } from '../../src/core/promptAdherence.js';
import { LogprobTrace, logprobEscalation } from '../../src/core/logprobTrace.js';
import { accumulateSseText } from '../../src/core/streamAccumulator.js';
import { analyzeText } from '../../src/core/analyzeText.js';
import { DEFAULT_VERDICT_MODEL } from '../../src/core/defaultVerdictModel.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import { renderRun } from '../../src/http/renderRun.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig } from '../helpers/testConfig.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { chunk, finishChunk, sseHeaders, startLoopback, usageChunk, type Loopback } from '../client/loopback.js';
import { silentLogger, streamResult, testProbe, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const deps = (): ProbeDeps => ({ stream: streamChat, env: {}, now: Date.now, logger: silentLogger, newId: () => 'r' });
const base = (lb: Loopback) => lb.url.replace(/\/chat\/completions$/, '');

const UNRELATED = healthyProse(1200, 5);
const BREAD = `${healthyProse(600, 6)}\n\n## Baking sourdough\n\nA sourdough starter ferments the flour; the dough rises slowly, and a hot oven gives the loaf its crust. Bakers knead, shape and bake each loaf.\n\n${healthyProse(400, 7)}`;
const EXPECT = { keywords: ['sourdough', 'flour', 'dough', 'crust', 'baking', 'starter'], minCoverage: 0.6, headings: 0 };

/** Streams `text` word by word; with `lp` and a request asking for logprobs, each chunk carries one. */
function answering(text: string | ((body: Record<string, unknown>) => string), lp?: (i: number) => number) {
  return (_req: unknown, res: import('node:http').ServerResponse, raw: string) => {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const words = (typeof text === 'string' ? text : text(body)).match(/\s*\S+/g) ?? [];
    sseHeaders(res);
    let out = '';
    words.forEach((w, i) => {
      const logprobs = lp && body['logprobs'] === true ? { content: [{ token: w, logprob: lp(i), bytes: null, top_logprobs: [] }] } : null;
      out += chunk(w, { choices: [{ index: 0, delta: { content: w }, logprobs, finish_reason: null }] });
    });
    res.end(out + finishChunk('stop') + usageChunk(10, words.length) + 'data: [DONE]\n\n');
  };
}

describe('prompt adherence (expect.keywords)', () => {
  test('the stemmer makes the forms of a word one, and leaves different words apart', () => {
    for (const [a, b] of [
      ['Databases', 'database'],
      ['replicated', 'replication'],
      ['indexes', 'index'],
      ['queries', 'query'],
      ['running', 'run'],
      ["baker's", 'baker'],
      ['installed', 'install'],
    ]) {
      assert.equal(stem(a!), stem(b!), `${a} / ${b}`);
    }
    assert.notEqual(stem('index'), stem('indent'));
    assert.notEqual(stem('cache'), stem('catch'));
  });

  test('coverage counts words and phrases, stemmed and case-insensitive; headings are ATX lines', () => {
    const c = keywordCoverage('We tuned the Connection Pools and indexed every table.', ['connection pool', 'index', 'table', 'vacuum']);
    assert.deepEqual(c, { coverage: 0.75, matched: ['connection pool', 'index', 'table'], missing: ['vacuum'] });
    assert.equal(keywordCoverage('pool of connections', ['connection pool']).coverage, 0);
    assert.equal(countHeadings('# A\ntext\n## B\n#no\n    # code\n###### C'), 3);
  });

  describe('against loopback servers', () => {
    let offPrompt: Loopback;
    let onPrompt: Loopback;
    before(async () => {
      offPrompt = await startLoopback(answering(UNRELATED));
      onPrompt = await startLoopback(answering(BREAD));
    });
    after(async () => {
      await offPrompt.close();
      await onPrompt.close();
    });
    const probe = testProbe({
      maxTokens: 3000,
      expect: EXPECT,
      messages: [{ role: 'user', content: 'Write about baking sourdough bread.' }],
    });

    test('a server answering unrelated text fails off_prompt, with the coverage in the sample', async () => {
      const run = await runProbe(testTarget({ baseUrl: base(offPrompt) }), probe, deps());
      const s = run.samples[0]!;
      assert.equal(s.verdict, 'fail', s.reasons.join('; '));
      assert.deepEqual(
        s.findings.map((f) => f.kind),
        ['off_prompt'],
      );
      assert.match(s.reasons[0]!, /^off_prompt: the answer mentions 0 of 6 expected keywords/);
      assert.equal(s.adherence?.coverage, 0);
      // the sample JSON (/probe, /runs, probe --json) carries it
      assert.equal(JSON.parse(JSON.stringify(s)).adherence.coverage, 0);
    });

    test('a server answering the prompt passes', async () => {
      const run = await runProbe(testTarget({ baseUrl: base(onPrompt) }), probe, deps());
      const s = run.samples[0]!;
      assert.equal(s.verdict, 'ok', s.reasons.join('; '));
      assert.equal(s.adherence?.coverage, 1);
    });
  });

  test('expect.language: an answer in another language fails wrong_language at the sample level; one in the expected language passes', () => {
    const german =
      'Der Sauerteig braucht Mehl, Wasser und Salz und vor allem viel Geduld, während er langsam aufgeht.\n\nAm Abend vor dem Backen füttert man den Ansatz, damit er am Morgen kräftig blubbert und angenehm säuerlich riecht.\n\nDanach wird der Teig geformt, über Nacht im Kühlschrank gelassen und in einem sehr heißen Topf gebacken.';
    const probe = testProbe({ expect: { keywords: [], minCoverage: 0.6, headings: 0, language: 'en' } });
    const s = judgeSample(streamResult({ content: german }), probe, 0);
    assert.equal(s.verdict, 'fail', s.reasons.join('; '));
    assert.deepEqual(
      s.findings.map((f) => [f.kind, f.channel]),
      [['wrong_language', 'sample']],
    );
    assert.match(s.reasons[0]!, /^wrong_language: the answer is in German, 0% of it in English \(expect\.language en\)$/);
    assert.equal(s.adherence?.language?.letters[0]?.[0], 'de');
    const run = {
      id: 'r1',
      target: 't',
      probe: 'p',
      verdict: s.verdict,
      trigger: 'manual' as const,
      startedAt: new Date(0).toISOString(),
      durationSeconds: 1,
      samples: [s],
    };
    assert.match(renderRun(run, 1000), /<td>answer language<\/td><td>German 100% \(\d+ letters of confident prose\)<\/td>/);
    const ok = judgeSample(streamResult({ content: healthyProse(1500, 4) }), probe, 0);
    assert.equal(ok.verdict, 'ok', ok.reasons.join('; '));
    // a collapsed text is explained by its collapse, not counted wrong_language as well
    const loop = judgeSample(streamResult({ content: `${german}\n\n${'der Teig der Teig '.repeat(300)}` }), probe, 0);
    assert.equal(loop.verdict, 'fail');
    assert.ok(!loop.findings.some((f) => f.kind === 'wrong_language'), loop.reasons.join('; '));
  });

  test('expect.language: a translation asked for after a line in English is the answer asked for, not a switch of script', () => {
    const translated =
      'Here is the paragraph translated into Simplified Chinese:\n\n人工智能正在改变我们的工作方式。许多公司已经开始使用机器学习来分析数据、预测趋势并自动化重复性任务。然而，这项技术也带来了新的挑战，例如数据隐私和算法偏见等问题。';
    const asked = (language: string) =>
      judgeSample(
        streamResult({ content: translated }),
        testProbe({ expect: { keywords: [], minCoverage: 0.6, headings: 0, language } }),
        0,
      );
    const zh = asked('zh');
    assert.equal(zh.verdict, 'ok', zh.reasons.join('; '));
    // the same text where the prompt asked for English, or for Korean (another script), is a switch
    for (const other of ['en', 'ko']) {
      const s = asked(other);
      assert.equal(s.verdict, 'fail', other);
      assert.ok(
        s.findings.some((f) => f.kind === 'script_switch'),
        `${other}: ${s.reasons.join('; ')}`,
      );
    }
    // with no language expected, the text alone reads a switch
    const none = judgeSample(streamResult({ content: translated }), testProbe({}), 0);
    assert.ok(
      none.findings.some((f) => f.kind === 'script_switch'),
      none.reasons.join('; '),
    );
  });

  test('too few headings is a warn (missing_headings), never a fail alone; a collapsed text is not off_prompt as well', () => {
    const probe = testProbe({ expect: { keywords: [], minCoverage: 0.6, headings: 5 } });
    const s = judgeSample(streamResult({ content: healthyProse(800, 3).replace(/^#+ /gm, '') }), probe, 0);
    assert.equal(s.verdict, 'warn', s.reasons.join('; '));
    assert.deepEqual(
      s.findings.map((f) => f.kind),
      ['missing_headings'],
    );
    const loop = judgeSample(
      streamResult({ content: `${healthyProse(100, 2)} ${'the cat sat on the mat. '.repeat(300)}` }),
      testProbe({ expect: EXPECT }),
      0,
    );
    assert.equal(loop.verdict, 'fail');
    assert.ok(!loop.findings.some((f) => f.kind === 'off_prompt'), loop.reasons.join('; '));
  });

  test('config: expect, temperatures and logprobs are validated', () => {
    const yaml = (probe: string) =>
      `targets:\n  - name: t\n    baseUrl: http://127.0.0.1:1/v1\n    model: m\nprobes:\n  - name: p\n    prompt: hi\n    maxTokens: 10\n${probe}`;
    const ok = parseConfig(
      yaml('    expect: { keywords: [a, b c] }\n    temperatures: [0, 0.6]\n    samples: 4\n    logprobs: true\n'),
      {},
    );
    assert.ok(ok.ok, JSON.stringify(ok));
    if (ok.ok) {
      assert.deepEqual(ok.config.probes[0]!.expect, { keywords: ['a', 'b c'], minCoverage: 0.6, headings: 0, language: null });
      assert.deepEqual(ok.config.probes[0]!.temperatures, [0, 0.6]);
      assert.equal(ok.config.probes[0]!.logprobs, true);
    }
    const bad = parseConfig(
      yaml('    expect: { keywords: [a], minCoverage: 2, head: 1 }\n    temperatures: [0, 0, 3]\n    samples: 20\n    logprobs: yes\n'),
      {},
    );
    assert.ok(!bad.ok);
    const text = bad.ok ? '' : bad.errors.join('\n');
    for (const m of [
      'probes[0].expect.minCoverage',
      'probes[0].expect.head: unknown key',
      'probes[0].temperatures[1]: 0 is listed twice',
      'probes[0].temperatures[2]',
      'probes[0].logprobs: must be true or false',
    ]) {
      assert.ok(text.includes(m), `${m} in\n${text}`);
    }
  });
});

describe('temperature sweeps', () => {
  let lb: Loopback;
  before(async () => {
    lb = await startLoopback(answering(healthyProse(900, 9)));
  });
  after(() => lb.close());

  test('temperatures [0, 0.6] x samples 2: 4 requests, 2 at each temperature as the server saw them, each sample carrying its own', async () => {
    const probe = testProbe({ samples: 2, temperatures: [0, 0.6] });
    assert.equal(samplePlan(probe).length, 4);
    const run = await runProbe(testTarget({ baseUrl: base(lb) }), probe, deps());
    const sent = lb.requests.map((r) => (JSON.parse(r.body) as { temperature: number }).temperature);
    assert.deepEqual(sent, [0, 0.6, 0, 0.6]);
    assert.deepEqual(
      run.samples.map((s) => s.temperature),
      [0, 0.6, 0, 0.6],
    );
    assert.deepEqual(
      run.samples.map((s) => s.index),
      [0, 1, 2, 3],
    );

    // /metrics: the temperature label on the sweeping probe only
    const metrics = createMetrics(new Registry(), { version: 't', defaultMetrics: false });
    initSeries(metrics, 'local', 'sweep', [0, 0.6]);
    initSeries(metrics, 'local', 'plain');
    for (const s of run.samples) recordSample(metrics, 'local', 'sweep', s, true);
    recordSample(metrics, 'local', 'plain', run.samples[0]!, false);
    const text = await metrics.registry.metrics();
    const lines = text.split('\n').filter((l) => l.startsWith('coherency_') && l.includes('temperature='));
    assert.ok(lines.length > 0);
    assert.ok(
      lines.every((l) => l.includes('probe="sweep"')),
      lines.filter((l) => !l.includes('probe="sweep"')).join('\n'),
    );
    assert.match(text, /coherency_probe_samples_total\{target="local",probe="sweep",verdict="ok",temperature="0"\} 2/);
    assert.match(text, /coherency_probe_samples_total\{target="local",probe="sweep",verdict="ok",temperature="0.6"\} 2/);
    assert.match(text, /coherency_probe_samples_total\{target="local",probe="plain",verdict="ok"\} 1/);
    assert.match(
      text,
      /coherency_output_compression_ratio_bucket\{le="[^"]+",target="local",probe="sweep",channel="content",temperature="0.6"\}/,
    );
    const temps = new Set(lines.map((l) => /temperature="([^"]*)"/.exec(l)![1]));
    assert.deepEqual([...temps].sort(), ['0', '0.6']);
  });
});

describe('simulator scenarios (on loopback)', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
  });
  after(() => sim.close());

  test('collapse-greedy collapses at temperature 0 only: a sweep tells the temperatures apart', async () => {
    const run = await runProbe(
      testTarget({ baseUrl: sim.url, model: 'collapse-greedy@300' }),
      testProbe({ maxTokens: 1500, temperatures: [0, 0.6] }),
      deps(),
    );
    assert.deepEqual(
      run.samples.map((s) => [s.temperature, s.verdict]),
      [
        [0, 'fail'],
        [0.6, 'ok'],
      ],
    );
    assert.deepEqual(
      sim.requests.slice(-2).map((r) => r.temperature),
      [0, 0.6],
    );
  });

  test('loops come with logprobs near 0 when asked, healthy text with ordinary ones; none unasked', async () => {
    const probe = testProbe({ maxTokens: 1500, logprobs: true, abortOnCollapse: false });
    const loop = (await runProbe(testTarget({ baseUrl: sim.url, model: 'collapse-sentence@300' }), probe, deps())).samples[0]!;
    const ok = (await runProbe(testTarget({ baseUrl: sim.url, model: 'healthy' }), probe, deps())).samples[0]!;
    assert.ok(loop.logprobs!.tailNearCertainRatio > 0.95, JSON.stringify(loop.logprobs));
    assert.ok(ok.logprobs!.tailNearCertainRatio < 0.5 && ok.logprobs!.meanLogprob < -0.5, JSON.stringify(ok.logprobs));
    const plain = (await runProbe(testTarget({ baseUrl: sim.url, model: 'healthy' }), testProbe({ maxTokens: 300 }), deps())).samples[0]!;
    assert.equal(plain.logprobs, null);
  });

  test('off-prompt answers fluent text about something else: fails a probe with expect.keywords', async () => {
    const probe = testProbe({
      maxTokens: 1500,
      expect: { keywords: ['hash table', 'collision', 'chaining', 'open addressing'], minCoverage: 0.6, headings: 0 },
    });
    const s = (await runProbe(testTarget({ baseUrl: sim.url, model: 'off-prompt' }), probe, deps())).samples[0]!;
    assert.equal(s.verdict, 'fail', s.reasons.join('; '));
    assert.deepEqual(
      s.findings.map((f) => f.kind),
      ['off_prompt'],
    );
  });
});

test('end to end through /probe and /metrics: a sweeping probe and a plain one on the same target', async () => {
  const lb = await startLoopback(answering(healthyProse(900, 9)));
  try {
    const config = testConfig({
      targets: [testTarget({ baseUrl: base(lb), probes: ['sweep', 'plain'] })],
      probes: [testProbe({ name: 'sweep', samples: 2, temperatures: [0, 0.6] }), testProbe({ name: 'plain' })],
    });
    const { app } = testApp(config, streamChat);
    const body = (await app.inject({ method: 'POST', url: '/probe?target=local&probe=sweep', payload: {} })).json() as {
      samples: { temperature: number }[];
    };
    assert.deepEqual(
      body.samples.map((x) => x.temperature),
      [0, 0.6, 0, 0.6],
    );
    await app.inject({ method: 'POST', url: '/probe?target=local&probe=plain', payload: {} });
    assert.equal(lb.requests.length, 5);
    const text = (await app.inject('/metrics')).body;
    const withTemp = text.split('\n').filter((l) => l.startsWith('coherency_') && l.includes('temperature='));
    assert.ok(withTemp.length > 0 && withTemp.every((l) => l.includes('probe="sweep"')), withTemp.join('\n'));
    assert.match(text, /coherency_degeneration_ratio\{target="local",probe="sweep",temperature="0"\} 0/);
    assert.match(text, /coherency_degeneration_ratio\{target="local",probe="plain"\} 0/);
    assert.doesNotMatch(text, /coherency_probe_samples_total\{target="local",probe="sweep",verdict="ok"\}/);
    await app.close();
  } finally {
    await lb.close();
  }
});

describe('logprob traces', () => {
  const LOOP = `${healthyProse(150, 4)} ${'The replica lag stays flat. '.repeat(120)}`;
  const HEALTHY = healthyProse(900, 8);
  // a recorded-format vLLM/OpenAI stream: choices[].logprobs.content[].logprob
  const ordinary = (i: number) => [-0.0003, -1.7, -0.42, -2.9, -0.05, -0.8, -3.6, -0.002][i % 8]!;

  test('the trace keeps a bounded tail: mean over all tokens, near-certain share and mean of the last 256', () => {
    const t = new LogprobTrace();
    for (let i = 0; i < 1000; i++) t.push(-2);
    for (let i = 0; i < 256; i++) t.push(-0.001);
    const s = t.summary()!;
    assert.equal(s.tokens, 1256);
    assert.equal(s.tailTokens, 256);
    assert.equal(s.tailNearCertainRatio, 1);
    assert.ok(Math.abs(s.tailMeanLogprob + 0.001) < 1e-9);
    assert.ok(Math.abs(s.meanLogprob - (-2000 - 0.256) / 1256) < 1e-9);
    assert.equal(new LogprobTrace().summary(), null);
    const acc = accumulateSseText(
      `${chunk('a', { choices: [{ index: 0, delta: { content: 'a' }, logprobs: { content: [{ token: 'a', logprob: -0.5, bytes: [97], top_logprobs: [] }] }, finish_reason: null }] })}data: [DONE]\n\n`,
    );
    assert.equal(acc.logprobs?.tokens, 1);
    assert.equal(acc.logprobs?.meanLogprob, -0.5);
  });

  let collapsing: Loopback;
  let healthy: Loopback;
  let ignoring: Loopback;
  before(async () => {
    collapsing = await startLoopback(answering(LOOP, (i) => (i < 150 ? ordinary(i) : -0.0002)));
    healthy = await startLoopback(answering(HEALTHY, ordinary));
    ignoring = await startLoopback(answering(HEALTHY));
  });
  after(async () => {
    await collapsing.close();
    await healthy.close();
    await ignoring.close();
  });
  // read to the end: an early abort would leave the tail half healthy prefix
  const probe = testProbe({ logprobs: true, abortOnCollapse: false });

  test('a collapse shows a near-certain tail near 1, a healthy stream does not; the request asked for logprobs', async () => {
    const loop = (await runProbe(testTarget({ baseUrl: base(collapsing) }), probe, deps())).samples[0]!;
    assert.equal(JSON.parse(collapsing.requests[0]!.body).logprobs, true);
    assert.ok(loop.logprobs && loop.logprobs.tailNearCertainRatio > 0.95, JSON.stringify(loop.logprobs));
    const ok = (await runProbe(testTarget({ baseUrl: base(healthy) }), probe, deps())).samples[0]!;
    assert.equal(ok.verdict, 'ok', ok.reasons.join('; '));
    assert.ok(ok.logprobs && ok.logprobs.tailNearCertainRatio < 0.5, JSON.stringify(ok.logprobs));
    assert.ok(ok.logprobs.tailMeanLogprob < -0.5);
    assert.equal(JSON.parse(JSON.stringify(ok)).logprobs.tokens, ok.logprobs.tokens);
  });

  test('a server that ignores the request: figures absent, the sample judged as before', async () => {
    const s = (await runProbe(testTarget({ baseUrl: base(ignoring) }), probe, deps())).samples[0]!;
    assert.equal(s.verdict, 'ok', s.reasons.join('; '));
    assert.equal(s.logprobs, null);
    const plain = (await runProbe(testTarget({ baseUrl: base(healthy) }), testProbe(), deps())).samples[0]!;
    assert.equal(JSON.parse(healthy.requests.at(-1)!.body).logprobs, undefined, 'not asked without logprobs: true');
    assert.equal(plain.logprobs, null);
  });

  test('logprobs strengthen a warn-level repeat into a fail when locked in, never make a finding alone', () => {
    const locked = { tokens: 900, meanLogprob: -0.4, tailTokens: 256, tailMeanLogprob: -0.001, tailNearCertainRatio: 0.98 };
    const unsure = { ...locked, tailMeanLogprob: -1.4, tailNearCertainRatio: 0.3 };
    assert.match(logprobEscalation('sentence_loop', true, locked)!, /^locked in: 98% of the last 256 tokens/);
    assert.equal(logprobEscalation('sentence_loop', true, unsure), null);
    assert.equal(logprobEscalation('script_switch', false, locked), null);
    assert.match(logprobEscalation('gibberish', false, { ...unsure, tailMeanLogprob: -6 })!, /guessing/);
    assert.equal(logprobEscalation('sentence_loop', true, { ...locked, tailTokens: 20 }), null);

    const text = healthyProse(900, 12);
    const real = analyzeText(text, { thresholds: {}, finishReason: 'length' });
    const warnLoop = {
      ...real,
      verdict: 'warn' as const,
      findings: [
        {
          kind: 'cycling' as const,
          severity: 'warn' as const,
          certain: false,
          atChar: 100,
          atToken: -1,
          detail: 'a near loop',
          excerpt: '',
        },
      ],
    };
    const judged = (lp: typeof locked | null) =>
      judgeSample(streamResult({ content: text, logprobs: lp }), testProbe(), 0, { content: warnLoop, reasoning: null });
    assert.equal(judged(null).verdict, 'warn');
    assert.equal(judged(unsure).verdict, 'warn');
    const strong = judged(locked);
    assert.equal(strong.verdict, 'fail');
    assert.match(strong.reasons[0]!, /^content: cycling: a near loop; locked in/);
    // a healthy text with near-certain tokens stays ok: no finding from logprobs alone
    assert.equal(judgeSample(streamResult({ content: text, logprobs: locked }), testProbe(), 0).verdict, 'ok');
  });
});

test('the run page shows the temperature, keyword coverage and logprob figures of a sample', () => {
  const sample = judgeSample(
    streamResult({
      content: UNRELATED,
      logprobs: { tokens: 900, meanLogprob: -1.25, tailTokens: 256, tailMeanLogprob: -0.002, tailNearCertainRatio: 0.97 },
    }),
    testProbe({ expect: EXPECT }),
    0,
  );
  sample.temperature = 0;
  const html = renderRun(
    {
      id: 'r1',
      target: 't',
      probe: 'p',
      verdict: sample.verdict,
      trigger: 'manual',
      startedAt: new Date(0).toISOString(),
      durationSeconds: 1,
      samples: [sample],
    },
    1000,
  );
  assert.match(html, /<td>temperature<\/td><td>0<\/td>/);
  assert.match(html, /<td>prompt keywords<\/td><td>0 of 6 \(0%\); missing sourdough, flour/);
  assert.match(html, /<td>mean logprob<\/td><td>-1.250 over 900 tokens<\/td>/);
  assert.match(html, /<td>last tokens near-certain<\/td><td>97% of 256/);
});

test('a learned model that cannot score a sample: the rules judge it and a note says why it has no score', () => {
  const broken = { ...DEFAULT_VERDICT_MODEL, features: ['nowhere.figure', ...DEFAULT_VERDICT_MODEL.features.slice(1)] };
  const loop = `${healthyProse(400, 2)}\n\n${'Then the answer loops on this very sentence forever. '.repeat(40)}`;
  const s = judgeSample(streamResult({ content: loop }), testProbe({ verdict: 'learned', learnedModel: broken }), 0);
  assert.equal(s.verdict, 'fail', s.reasons.join('; '));
  assert.equal(s.error, null);
  assert.equal(s.score, null);
  assert.ok(
    s.notes.some((n) => /^content: the learned model gave no score \(verdict model: feature 0 is nowhere\.figure/.test(n)),
    s.notes.join('; '),
  );
});
