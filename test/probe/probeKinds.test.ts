import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { streamChat } from '../../src/client/streamChat.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import type { ProbeConfig } from '../../src/config/types.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { outcomeOf } from '../../src/probe/probeTypes.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { findingKinds } from '../../src/probe/judgeSample.js';
import { chunk, finishChunk, sseHeaders, startLoopback, usageChunk, type Loopback } from '../client/loopback.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

type Message = { role: string; content: string };

/** Streams `text` as an OpenAI-compatible chat completion, in pieces of 1,000 chars. */
function answer(res: http.ServerResponse, text: string): void {
  sseHeaders(res);
  for (let i = 0; i < text.length; i += 1000) res.write(chunk(text.slice(i, i + 1000)));
  res.write(finishChunk('stop'));
  res.write(usageChunk(10, Math.ceil(text.length / 4)));
  res.end('data: [DONE]\n\n');
}

const messagesOf = (body: string): Message[] => (JSON.parse(body) as { messages: Message[] }).messages;
const lastUser = (messages: Message[]): string => [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';

function deps(over: Partial<ProbeDeps> = {}): ProbeDeps {
  let n = 0;
  return { stream: streamChat, env: {}, now: Date.now, logger: silentLogger, newId: () => `run-${++n}`, ...over };
}

const recallProbe = (over: Partial<ProbeConfig> = {}): ProbeConfig =>
  testProbe({
    name: 'recall',
    messages: [],
    maxTokens: 256,
    kind: 'recall',
    recall: { conversationTokens: 16000, facts: 5, positions: ['start', 'middle', 'end'], seed: 7, minRecall: 0.5 },
    ...over,
  });

describe('kind: recall against loopback servers', () => {
  let remembers: Loopback;
  let forgets: Loopback;
  before(async () => {
    // answers with the text of every message it was sent: it remembers
    remembers = await startLoopback((_req, res, body) =>
      answer(
        res,
        messagesOf(body)
          .map((m) => m.content)
          .join('\n\n'),
      ),
    );
    // answers with only the last user message: it forgot the conversation
    forgets = await startLoopback((_req, res, body) => answer(res, lastUser(messagesOf(body))));
  });
  after(async () => {
    await remembers.close();
    await forgets.close();
  });

  test('a 16k-token conversation is ok with recall ratio 1 against the server that remembers', async () => {
    const run = await runProbe(testTarget({ baseUrl: remembers.url.replace('/chat/completions', '') }), recallProbe(), deps());
    const sample = run.samples[0]!;
    const recall = outcomeOf(sample, 'recall');
    assert.equal(run.verdict, 'ok', sample.reasons.join('; '));
    assert.equal(recall?.ratio, 1);
    assert.equal(recall?.facts, 5);
    assert.deepEqual(recall?.missed, []);
    assert.ok(recall!.conversationTokens >= 16000 && recall!.conversationTokens < 17000, String(recall!.conversationTokens));
    // the server got a long multi-turn conversation that ends with the question
    const sent = messagesOf(remembers.requests.at(-1)!.body);
    assert.ok(sent.length > 50, `${sent.length} messages`);
    assert.match(lastUser(sent), /remember 5 details/);
  });

  test('it fails with recall 0 against the server that forgot, naming the positions missed', async () => {
    const run = await runProbe(testTarget({ baseUrl: forgets.url.replace('/chat/completions', '') }), recallProbe(), deps());
    const sample = run.samples[0]!;
    const recall = outcomeOf(sample, 'recall');
    assert.equal(run.verdict, 'fail');
    assert.equal(recall?.ratio, 0);
    assert.deepEqual(findingKinds(sample.findings), ['recall_missed']);
    assert.match(sample.reasons[0]!, /^recall_missed: recalled 0 of 5 facts .*2 at the start, 2 at the middle, 1 at the end/);
    assert.deepEqual(recall?.byPosition, {
      start: { planted: 2, recalled: 0 },
      middle: { planted: 2, recalled: 0 },
      end: { planted: 1, recalled: 0 },
    });
    assert.equal(recall?.missed.length, 5);
  });

  test('the same seed sends the same conversation', async () => {
    const base = testTarget({ baseUrl: forgets.url.replace('/chat/completions', '') });
    const small = recallProbe({ recall: { conversationTokens: 2000, facts: 2, positions: ['middle'], seed: 3, minRecall: 0.5 } });
    await runProbe(base, small, deps());
    await runProbe(base, small, deps());
    const [a, b] = forgets.requests.slice(-2).map((r) => messagesOf(r.body));
    assert.deepEqual(a, b);
  });
});

const contaminationProbe = (concurrency: number): ProbeConfig =>
  testProbe({ name: 'contamination', messages: [], maxTokens: 256, kind: 'contamination', contamination: { concurrency, seed: 1 } });

describe('kind: contamination against loopback servers', () => {
  test('concurrency 4 is ok against a server that answers each request with its own last user message', async () => {
    let inFlight = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    // holds each answer until 4 requests are in (or 2 s passed), so the test sees them overlap
    const own = await startLoopback((_req, res, body) => {
      most = Math.max(most, ++inFlight);
      const reply = () => {
        inFlight--;
        answer(res, lastUser(messagesOf(body)));
      };
      waiting.push(reply);
      if (waiting.length >= 4) for (const r of waiting.splice(0)) r();
      else setTimeout(() => waiting.includes(reply) && waiting.splice(waiting.indexOf(reply), 1)[0]!(), 2000);
    });
    try {
      const run = await runProbe(testTarget({ baseUrl: own.url.replace('/chat/completions', '') }), contaminationProbe(4), deps());
      assert.equal(run.verdict, 'ok', run.samples.flatMap((s) => s.reasons).join('; '));
      assert.equal(run.samples.length, 4);
      assert.equal(most, 4, 'the 4 requests were in flight together');
      assert.deepEqual(
        run.samples.map((s) => outcomeOf(s, 'contamination')?.request),
        [1, 2, 3, 4],
      );
      const outcomes = run.samples.map((s) => outcomeOf(s, 'contamination'));
      assert.ok(outcomes.every((c) => c?.ownCodeWord && c.leakedFrom.length === 0));
      assert.equal(new Set(run.samples.map((s) => outcomeOf(s, 'contamination')?.codeWord)).size, 4);
    } finally {
      await own.close();
    }
  });

  test("it fails naming the leak against a server that answers with the previous request's last user message", async () => {
    let previous: string | null = null;
    const leaky = await startLoopback((_req, res, body) => {
      const mine = lastUser(messagesOf(body));
      answer(res, previous ?? mine);
      previous = mine;
    });
    try {
      const run = await runProbe(testTarget({ baseUrl: leaky.url.replace('/chat/completions', '') }), contaminationProbe(4), deps());
      assert.equal(run.verdict, 'fail');
      // the order the server saw them in says which answer got whose code word
      const order = leaky.requests.map(
        (r) => run.samples.find((s) => lastUser(messagesOf(r.body)).includes(outcomeOf(s, 'contamination')!.codeWord))!,
      );
      for (let k = 1; k < order.length; k++) {
        const victim = order[k]!;
        const source = outcomeOf(order[k - 1]!, 'contamination')!;
        const hit = outcomeOf(victim, 'contamination')!;
        assert.equal(victim.verdict, 'fail');
        assert.deepEqual(hit.leakedFrom, [source.request]);
        const leak = victim.findings.find((f) => f.kind === 'contamination')!;
        assert.equal(
          leak.detail,
          `request ${source.request}'s code word ${source.codeWord} (topic: ${source.topic}) ` +
            `appeared in the answer to request ${hit.request} (topic: ${hit.topic})`,
        );
        assert.ok(victim.findings.some((f) => f.kind === 'codeword_missing'));
      }
      // the first request the server saw had no previous one: its own answer, ok
      assert.equal(order[0]!.verdict, 'ok');
    } finally {
      await leaky.close();
    }
  });

  test('each request takes a slot of server.maxConcurrentSamples; fewer slots than requests is noted', async () => {
    const own = await startLoopback((_req, res, body) => answer(res, lastUser(messagesOf(body))));
    let held = 0;
    let most = 0;
    const queue: (() => void)[] = [];
    const slots = {
      async acquire() {
        if (held >= 2) await new Promise<void>((r) => queue.push(r));
        most = Math.max(most, ++held);
        return () => {
          held--;
          queue.shift()?.();
        };
      },
    };
    try {
      const run = await runProbe(testTarget({ baseUrl: own.url.replace('/chat/completions', '') }), contaminationProbe(4), deps({ slots }));
      assert.equal(run.verdict, 'ok');
      assert.equal(most, 2);
      assert.match(run.samples[0]!.notes.join(' '), /at most 2 of the 4 requests were in flight together/);
    } finally {
      await own.close();
    }
  });
});

test('DEFAULTS give a recall probe without settings the documented ones', () => {
  assert.equal(DEFAULTS.probeKinds.recall.minRecall, 0.5);
  assert.deepEqual(DEFAULTS.probeKinds.recall.positions, ['start', 'middle', 'end']);
});
