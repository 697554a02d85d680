import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { adaptToRefusal, apiKeyOf, buildChatRequest, shapeOf } from '../../src/probe/buildChatRequest.js';
import { findingKinds, judgeSample } from '../../src/probe/judgeSample.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { responseByteCap } from '../../src/probe/responseByteCap.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { silentLogger, streamResult, testProbe, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const HEALTHY = healthyProse(2500, 11);

describe('buildChatRequest', () => {
  test('streams with usage, sends the key from the named variable and keeps daemon-owned fields', async () => {
    const target = testTarget({ apiKeyEnv: 'MY_KEY', headers: { 'x-team': 'ml' } });
    const req = buildChatRequest(
      target,
      testProbe({ extraBody: { top_p: 0.9, seed: 3 } }),
      await apiKeyOf(target, { MY_KEY: 'sk-canary' }),
    );
    assert.equal(req.url, 'http://127.0.0.1:1/v1/chat/completions');
    assert.equal(req.headers['authorization'], 'Bearer sk-canary');
    assert.equal(req.headers['x-team'], 'ml');
    assert.equal(req.body['stream'], true);
    assert.deepEqual(req.body['stream_options'], { include_usage: true });
    assert.equal(req.body['max_tokens'], 3000);
    assert.equal(req.body['top_p'], 0.9);
    assert.equal(req.body['model'], 'healthy');
  });

  test('no Authorization header without a key', async () => {
    const req = buildChatRequest(testTarget(), testProbe(), await apiKeyOf(testTarget(), {}));
    assert.equal(req.headers['authorization'], undefined);
  });
});

describe('apiKeyOf', () => {
  test('reads a key file at each call, trimming the newline a mounted secret ends with', async () => {
    let content = 'sk-first\n';
    const target = testTarget({ apiKeyFile: '/run/secrets/key' });
    const read = async (p: string) => {
      assert.equal(p, '/run/secrets/key');
      return content;
    };
    assert.equal(await apiKeyOf(target, {}, read), 'sk-first');
    content = 'sk-rotated\n';
    assert.equal(await apiKeyOf(target, {}, read), 'sk-rotated');
  });

  test('a key that cannot go into a header is an api_key error that names the problem, never the key', async () => {
    const target = testTarget({ apiKeyEnv: 'K' });
    await assert.rejects(apiKeyOf(target, { K: 'sk-ab\ncd' }), {
      message: 'the API key of target local (apiKeyEnv K) holds a line break at character 6 of 8: it cannot be sent in an HTTP header',
    });
    await assert.rejects(apiKeyOf(target, { K: 'sk-\u201ccanary\u201d' }), /above U\+00FF at character 4 of 11/);
    const run = await runProbe(target, testProbe(), {
      stream: async () => {
        throw new Error('must not be called');
      },
      env: { K: 'sk-secret-canary\u2014x' },
      now: Date.now,
      logger: silentLogger,
      newId: () => 'k',
    });
    const error = run.samples[0]!.error!;
    assert.equal(error.type, 'api_key');
    assert.doesNotMatch(error.message, /canary/);
  });

  test('an unreadable key file becomes an api_key error sample that does not quote the file', async () => {
    const run = await runProbe(testTarget({ apiKeyFile: '/nope/key' }), testProbe(), {
      stream: async () => {
        throw new Error('must not be called');
      },
      env: {},
      now: Date.now,
      logger: silentLogger,
      newId: () => 'k',
      readKeyFile: async () => {
        throw Object.assign(new Error("ENOENT: no such file or directory, open '/nope/key'"), { code: 'ENOENT' });
      },
    });
    assert.equal(run.samples[0]!.error?.type, 'api_key');
    assert.equal(run.samples[0]!.error?.message, 'cannot read the API key file of target local: ENOENT');
  });
});

describe('judgeSample', () => {
  const probe = testProbe({ minTokens: 1500 });

  test('healthy long output is ok', () => {
    const s = judgeSample(streamResult({ content: HEALTHY }), probe, 0);
    assert.equal(s.verdict, 'ok', s.reasons.join('; '));
    assert.deepEqual(s.reasons, []);
    assert.equal(s.metrics?.reasoning, null);
  });

  test('fewer tokens than minTokens is inconclusive (warn), never ok', () => {
    const s = judgeSample(streamResult({ content: healthyProse(200, 2), outputTokens: 300, finishReason: 'stop' }), probe, 0);
    assert.equal(s.verdict, 'warn');
    assert.match(s.reasons[0]!, /^inconclusive: 300 output tokens, fewer than minTokens 1500/);
    assert.deepEqual(findingKinds(s.findings), ['inconclusive']);
  });

  test('a budget spent on reasoning is inconclusive, not a collapse', () => {
    const s = judgeSample(streamResult({ content: '', reasoning: HEALTHY, finishReason: 'length', outputTokens: 3000 }), probe, 0);
    assert.equal(s.verdict, 'warn');
    assert.match(s.reasons.join(), /reasoning/);
    assert.ok(s.metrics?.reasoning);
  });

  test('empty content without reasoning fails', () => {
    const s = judgeSample(streamResult({ content: '', outputTokens: 0, finishReason: 'stop' }), probe, 0);
    assert.equal(s.verdict, 'fail');
  });

  test("vLLM's repetition_detected stop reason fails the sample", () => {
    const s = judgeSample(streamResult({ content: HEALTHY, stopReason: 'repetition_detected' }), probe, 0);
    assert.equal(s.verdict, 'fail');
    assert.ok(findingKinds(s.findings).includes('engine_repetition_stop'));
  });

  test('a stream error is an error sample that keeps what came', () => {
    const s = judgeSample(
      streamResult({ content: HEALTHY.slice(0, 500), error: { type: 'truncated', message: 'connection closed before [DONE]' } }),
      probe,
      0,
    );
    assert.equal(s.verdict, 'error');
    assert.equal(s.reasons[0], 'truncated: connection closed before [DONE]');
    assert.equal(s.content.length, 500);
  });

  test('a non-streamed JSON answer is still analysed', () => {
    const s = judgeSample(
      streamResult({ content: HEALTHY, error: { type: 'not_streaming', message: 'server ignored stream: true' } }),
      probe,
      0,
    );
    assert.equal(s.verdict, 'ok');
    assert.match(s.reasons[0]!, /^not_streaming: .*analysed anyway/);
  });

  test('reasoning is analysed separately and combined', () => {
    const loop = 'I need to check this again. '.repeat(200);
    const s = judgeSample(streamResult({ content: HEALTHY, reasoning: loop }), probe, 0);
    assert.equal(s.verdict, 'fail');
    assert.ok(s.reasons.some((r) => r.startsWith('reasoning: ')));
    assert.ok(s.metrics!.combined.chars > s.metrics!.content.chars);
  });
});

test('findings carry kind, channel, offsets and an excerpt; the metric kinds come from them, not from reason text', () => {
  const loop = HEALTHY + ' ' + 'The cache is warm again. '.repeat(40);
  const s = judgeSample(streamResult({ content: loop }), testProbe(), 0);
  assert.equal(s.verdict, 'fail');
  const f = s.findings.find((x) => x.severity === 'fail')!;
  assert.equal(f.channel, 'content');
  assert.ok(f.atChar >= HEALTHY.length - 2 && f.atChar < loop.length, `atChar ${f.atChar}`);
  assert.match(f.excerpt, /The cache is warm again/);
  assert.ok(s.reasons.includes(`content: ${f.kind}: ${f.detail}`));
  const renamed = s.findings.map((x) => ({ ...x, detail: 'reworded' }));
  assert.deepEqual(findingKinds(renamed), findingKinds(s.findings));
  assert.deepEqual(findingKinds([{ kind: 'sentence_loop' }, { kind: 'inconclusive' }, { kind: 'sentence_loop' }]), [
    'sentence_loop',
    'inconclusive',
  ]);
});

test('runProbe runs every sample and reports the worst verdict', async () => {
  const stream = fakeStream({ healthy: { content: HEALTHY } });
  const run = await runProbe(testTarget(), testProbe({ samples: 3 }), {
    stream: stream.fn,
    env: {},
    now: Date.now,
    logger: silentLogger,
    newId: () => 'id-1',
  });
  assert.equal(stream.requests.length, 3);
  assert.equal(run.samples.length, 3);
  assert.equal(run.verdict, 'ok');
  assert.deepEqual(
    run.samples.map((s) => s.index),
    [0, 1, 2],
  );
});

test('a crash inside the stream function becomes an internal error sample', async () => {
  const run = await runProbe(testTarget(), testProbe(), {
    stream: async () => {
      throw new Error('boom');
    },
    env: {},
    now: Date.now,
    logger: silentLogger,
    newId: () => 'id-2',
  });
  assert.equal(run.verdict, 'error');
  assert.equal(run.samples[0]!.error?.type, 'internal');
});

test('a long sample logs its progress at debug level every few seconds', async () => {
  const log = captureLogger();
  let clock = 1_000_000;
  const run = await runProbe(testTarget(), testProbe(), {
    stream: async (_req, options) => {
      // 20 reads, 1.5 s apart: a progress line every 5 s of them.
      for (let i = 1; i <= 20; i++) {
        clock += 1500;
        options.onProgress?.({ contentDelta: HEALTHY.slice((i - 1) * 200, i * 200), reasoningDelta: '', tokens: i * 50 });
      }
      return streamResult({ content: HEALTHY.slice(0, 4000), outputTokens: 1000 });
    },
    env: {},
    now: () => clock,
    logger: log.logger,
    newId: () => 'p',
  });
  assert.equal(run.verdict, 'ok');
  const lines = log
    .text()
    .split('\n')
    .filter((l) => l.includes('sample in progress'))
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 5);
  assert.equal(lines[0].level, 20, 'debug');
  assert.equal(lines[0].tokens, 200);
  assert.equal(lines[0].verdict, 'ok');
  assert.ok(lines[0].tokensPerSecond > 0);
});

test('a sample is logged at info when ok, warn when it fails, error when it errors', async () => {
  const levelOf = async (result: ReturnType<typeof streamResult>): Promise<number> => {
    const log = captureLogger();
    await runProbe(testTarget(), testProbe(), { stream: async () => result, env: {}, now: () => 0, logger: log.logger, newId: () => 'l' });
    const line = log
      .text()
      .split('\n')
      .filter((l) => l.includes('sample finished'))
      .map((l) => JSON.parse(l))[0];
    return line.level;
  };
  assert.equal(await levelOf(streamResult({ content: HEALTHY, outputTokens: 2000 })), 30);
  assert.equal(await levelOf(streamResult({ content: HEALTHY + ' ' + 'The cache is warm again. '.repeat(40), outputTokens: 2500 })), 40);
  assert.equal(await levelOf(streamResult({ content: '', outputTokens: 0, error: { type: 'http_status', message: 'HTTP 500' } })), 50);
});

test('the response cap scales with maxTokens unless the probe sets it, and reaches the client', async () => {
  assert.equal(responseByteCap({ maxTokens: 1000, maxResponseBytes: null }), 8 * 1024 * 1024);
  assert.equal(responseByteCap({ maxTokens: 200_000, maxResponseBytes: null }), 200_000 * 1024);
  assert.equal(responseByteCap({ maxTokens: 200_000, maxResponseBytes: 1 << 20 }), 1 << 20);
  let seen: number | undefined;
  await runProbe(testTarget(), testProbe({ maxTokens: 50_000 }), {
    stream: async (_req, options) => {
      seen = options.maxBytes;
      return streamResult({ content: HEALTHY, outputTokens: 2000 });
    },
    env: {},
    now: () => 0,
    logger: silentLogger,
    newId: () => 'cap',
  });
  assert.equal(seen, 50_000 * 1024);
});

describe('a server that refuses request fields by name (OpenAI reasoning models)', () => {
  const refusing = () => {
    const bodies: Record<string, unknown>[] = [];
    const fn = async (req: { body: Record<string, unknown> }) => {
      bodies.push(req.body);
      const b = req.body;
      const refuse = (message: string) => streamResult({ content: '', outputTokens: 0, error: { type: 'http_status', message } });
      if ('max_tokens' in b)
        return refuse(
          `HTTP 400 Bad Request: {"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","param":"max_tokens"}}`,
        );
      if ('temperature' in b)
        return refuse(
          `HTTP 400 Bad Request: {"error":{"message":"Unsupported value: 'temperature' does not support 0.6 with this model. Only the default (1) value is supported.","param":"temperature"}}`,
        );
      return streamResult({ content: HEALTHY, outputTokens: 2000 });
    };
    return { bodies, fn };
  };
  const deps = (stream: unknown, shapes = new Map()) => ({
    stream: stream as never,
    env: {},
    now: () => 0,
    logger: silentLogger,
    newId: () => 's',
    shapes,
  });

  it('adapts once per field, passes, says what changed, and sends the right shape on later runs', async () => {
    const server = refusing();
    const shapes = new Map();
    const run = await runProbe(testTarget(), testProbe(), deps(server.fn, shapes));
    assert.equal(run.verdict, 'ok', run.samples[0]!.reasons.join('; '));
    assert.equal(server.bodies.length, 3);
    assert.deepEqual(run.samples[0]!.notes, [
      'max_tokens refused: the token limit is sent as max_completion_tokens',
      "temperature 0.6 refused: sampled at the server's default temperature",
    ]);
    const last = server.bodies[2]!;
    assert.equal(last['max_completion_tokens'], testProbe().maxTokens);
    assert.equal('temperature' in last, false);
    const again = await runProbe(testTarget(), testProbe(), deps(server.fn, shapes));
    assert.equal(again.verdict, 'ok');
    assert.equal(server.bodies.length, 4, 'the next run sends the learned shape right away');
    assert.match(again.samples[0]!.notes.join(), /temperature 0.6 not sent/);
  });

  it('never changes a field the target pins, and leaves other refusals alone', async () => {
    const server = refusing();
    const run = await runProbe(testTarget({ maxTokensField: 'max_tokens' }), testProbe(), deps(server.fn));
    assert.equal(run.verdict, 'error');
    assert.equal(server.bodies.length, 1);
    assert.equal(
      adaptToRefusal(
        'HTTP 400 Bad Request: {"error":{"message":"context length exceeded"}}',
        shapeOf(testTarget()),
        testTarget(),
        testProbe(),
      ),
      null,
    );
    assert.equal(adaptToRefusal("HTTP 500: 'max_tokens' max_completion_tokens", shapeOf(testTarget()), testTarget(), testProbe()), null);
  });

  it('a target can pin the shape in its config', () => {
    const req = buildChatRequest(testTarget({ maxTokensField: 'max_completion_tokens', omit: ['temperature'] }), testProbe(), null);
    assert.equal(req.body['max_completion_tokens'], testProbe().maxTokens);
    assert.equal('max_tokens' in req.body, false);
    assert.equal('temperature' in req.body, false);
  });
});

test('content parts of an unknown type (images, audio) are named in the sample notes', async () => {
  const run = async (unknownContentParts: number) =>
    (
      await runProbe(testTarget(), testProbe(), {
        stream: async () => streamResult({ content: HEALTHY, outputTokens: 2000, unknownContentParts }),
        env: {},
        now: () => 0,
        logger: silentLogger,
        newId: () => 'u',
      })
    ).samples[0]!;
  assert.deepEqual((await run(0)).notes, []);
  const s = await run(2);
  assert.equal(s.verdict, 'ok');
  assert.deepEqual(s.notes, ['2 content parts of a type other than text or thinking were not read (neither content nor reasoning)']);
});

test('the metrics of a sample give the same token indexes as its findings and onsetToken', async () => {
  const loop = `${HEALTHY} ${'The cache is warm again. '.repeat(60)}`;
  const stream = fakeStream({ healthy: { content: loop } });
  const run = await runProbe(testTarget(), testProbe(), {
    stream: stream.fn,
    env: {},
    now: Date.now,
    logger: silentLogger,
    newId: () => 'id-1',
  });
  const s = run.samples[0]!;
  assert.equal(s.verdict, 'fail', s.reasons.join('; '));
  const m = s.metrics!.content;
  assert.ok(s.onsetToken !== null && s.onsetToken > 0, `onsetToken ${s.onsetToken}`);
  assert.equal(m.repeatOnsetToken, s.onsetToken);
  const first = s.findings.filter((f) => f.severity === 'fail').sort((a, b) => a.atChar - b.atChar)[0]!;
  assert.equal(m.collapseOnset, first.atChar);
  assert.ok(m.collapseOnsetToken > 0, `collapseOnsetToken ${m.collapseOnsetToken}`);
  assert.equal(m.collapseOnsetToken, first.atToken);
  assert.deepEqual(s.metrics!.combined, m, 'without reasoning the combined figures are the content figures');
});
