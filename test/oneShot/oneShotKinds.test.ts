import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest } from '../../src/client/streamTypes.js';
import { runOneShot } from '../../src/oneShot/runOneShot.js';
import type { StreamFn } from '../../src/probe/probeDeps.js';
import { silentLogger, streamResult, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';

// the raw bytes as a server would send them: each request's own last message, as one event
const echo: StreamFn = async (request: ChatRequest, options) => {
  const messages = request.body['messages'] as { content: string }[];
  const content = messages.at(-1)!.content;
  const raw = (options as { onRaw?: (b: Uint8Array) => void }).onRaw;
  raw?.(Buffer.from(`data: ${JSON.stringify({ content })}\n\n`));
  // let the other requests of a contamination probe start before this one reports progress
  await new Promise((r) => setImmediate(r));
  options.onProgress?.({ contentDelta: content, reasoningDelta: '', tokens: 1, elapsedSeconds: 0.1 });
  return streamResult({ content, finishReason: 'stop' });
};

test('the probe command runs a contamination probe; each sample keeps its own live line and its own capture, though their requests overlap', async () => {
  const config = testConfig({
    targets: [testTarget({ name: 't', probes: ['short', 'mixing'] })],
    probes: [
      testProbe({ name: 'short' }),
      testProbe({ name: 'mixing', messages: [], maxTokens: 100, kind: 'contamination', contamination: { concurrency: 3, seed: 1 } }),
    ],
  });
  const saved: { probe: string; index: number; capture: string | null }[] = [];
  const keys: string[] = [];
  const started: string[] = [];
  const progressed: string[] = [];
  const { runs } = await runOneShot({
    config,
    pairs: [
      { target: 't', probe: 'mixing' },
      { target: 't', probe: 'short' },
    ],
    env: {},
    logger: silentLogger,
    concurrency: 4,
    captureRaw: true,
    stream: echo,
    view: {
      started: (key) => started.push(key),
      progress: (key) => progressed.push(key),
      state: () => {},
      finished: (key) => keys.push(key),
      close: () => {},
    },
    onSample: (_t, probe, sample, capture) => {
      saved.push({ probe, index: sample.index, capture: capture ? Buffer.from(capture).toString() : null });
    },
  });
  assert.equal(runs[0]!.verdict, 'ok');
  assert.equal(runs[0]!.samples.length, 3);
  // each capture holds its own request's bytes only: the message (and code word) it was sent
  const asked = new Map(runs[0]!.samples.map((s) => [s.index, s]));
  const mixing = saved.filter((s) => s.probe === 'mixing').sort((a, b) => a.index - b.index);
  assert.deepEqual(
    mixing.map((s) => s.index),
    [0, 1, 2],
  );
  for (const s of mixing) {
    const events = s.capture!.split('\n\n').filter(Boolean);
    assert.equal(events.length, 1, `sample ${s.index}: one event, got ${events.length}`);
    const sent = JSON.parse(events[0]!.slice('data: '.length)) as { content: string };
    assert.equal(sent.content, asked.get(s.index)!.content, `sample ${s.index} holds its own answer`);
  }
  assert.match(saved.find((s) => s.probe === 'short')!.capture!, /^data: /);
  assert.deepEqual(keys.filter((k) => k.startsWith('t/mixing/')).sort(), ['t/mixing/0', 't/mixing/1', 't/mixing/2']);
  // every live line belongs to its own sample, started and ended under the same key
  const mine = (list: string[]) => [...new Set(list.filter((k) => k.startsWith('t/mixing/')))].sort();
  assert.deepEqual(mine(started), ['t/mixing/0', 't/mixing/1', 't/mixing/2']);
  assert.deepEqual(mine(progressed), ['t/mixing/0', 't/mixing/1', 't/mixing/2']);
});

test('a contamination probe streams its requests together even at --concurrency 1', async () => {
  let inFlight = 0;
  let most = 0;
  const slow: StreamFn = async (request, options) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 30));
    inFlight--;
    return echo(request, options);
  };
  const config = testConfig({
    targets: [testTarget({ name: 't', probes: ['mixing'] })],
    probes: [
      testProbe({ name: 'mixing', messages: [], maxTokens: 100, kind: 'contamination', contamination: { concurrency: 3, seed: 2 } }),
    ],
  });
  const { runs } = await runOneShot({
    config,
    pairs: [{ target: 't', probe: 'mixing' }],
    env: {},
    logger: silentLogger,
    concurrency: 1,
    captureRaw: false,
    stream: slow,
    view: { started: () => {}, progress: () => {}, state: () => {}, finished: () => {}, close: () => {} },
  });
  assert.equal(most, 3, 'all three requests in flight at once');
  assert.ok(!runs[0]!.samples.some((s) => s.notes.some((n) => /in flight together/.test(n))), 'no note about too few slots');
});

test("a conformance run's live line says how far its checks got", async () => {
  const config = testConfig({
    targets: [testTarget({ name: 't', probes: ['checklist'] })],
    probes: [testProbe({ name: 'checklist', messages: [], maxTokens: 64, kind: 'conformance', conformance: { checks: ['auth'] } })],
  });
  const states: string[] = [];
  const { runs } = await runOneShot({
    config,
    pairs: [{ target: 't', probe: 'checklist' }],
    env: {},
    logger: silentLogger,
    concurrency: 1,
    captureRaw: false,
    stream: echo,
    http: () => Promise.reject(new Error('auth without a key sends nothing')),
    view: { started: () => {}, progress: () => {}, state: (_k, s) => states.push(s), finished: () => {}, close: () => {} },
  });
  assert.equal(runs[0]!.verdict, 'ok');
  assert.deepEqual(states, ['checked auth: skipped (no_api_key)']);
});
