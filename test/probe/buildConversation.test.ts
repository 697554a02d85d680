import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildConversation, estimateTokens } from '../../src/probe/conversation/buildConversation.js';
import { contaminationRequests } from '../../src/probe/kinds/contaminationKind.js';

test('the conversation is sized in estimated tokens, the same for the same seed and different for another', () => {
  for (const size of [1000, 8000, 32000]) {
    const c = buildConversation({ conversationTokens: size, facts: 5, positions: ['start', 'middle', 'end'], seed: 1 });
    assert.equal(c.tokens, estimateTokens(c.messages));
    assert.ok(c.tokens >= size && c.tokens < size + 800, `${size}: ${c.tokens}`);
  }
  const a = buildConversation({ conversationTokens: 4000, facts: 3, positions: ['start'], seed: 5 });
  assert.deepEqual(buildConversation({ conversationTokens: 4000, facts: 3, positions: ['start'], seed: 5 }), a);
  assert.notDeepEqual(buildConversation({ conversationTokens: 4000, facts: 3, positions: ['start'], seed: 6 }).messages, a.messages);
});

test('facts are stated by the user where their position says, and the last turn asks for each by label', () => {
  const c = buildConversation({ conversationTokens: 20000, facts: 6, positions: ['start', 'middle', 'end'], seed: 3 });
  const n = c.messages.length;
  assert.equal(c.messages[0]!.role, 'system');
  for (const f of c.facts) {
    const m = c.messages[f.message]!;
    assert.equal(m.role, 'user');
    assert.ok(m.content.includes(f.value) && m.content.includes(f.label));
    const at = f.message / n;
    if (f.position === 'start') assert.ok(at < 0.1, `start at ${at}`);
    if (f.position === 'middle') assert.ok(at > 0.4 && at < 0.6, `middle at ${at}`);
    if (f.position === 'end') assert.ok(at > 0.9, `end at ${at}`);
    // the value appears once in the whole conversation: nowhere else could the answer copy it from
    assert.equal(c.messages.filter((x) => x.content.includes(f.value)).length, 1);
  }
  const last = c.messages.at(-1)!;
  assert.equal(last.role, 'user');
  for (const f of c.facts) assert.ok(last.content.includes(f.label) && !last.content.includes(f.value));
  assert.equal(new Set(c.facts.map((f) => f.label)).size, 6);
});

test('the filler is varied: user turns and assistant sentences seldom repeat', () => {
  const c = buildConversation({ conversationTokens: 16000, facts: 1, positions: ['middle'], seed: 1 });
  const asks = c.messages.filter((m) => m.role === 'user').map((m) => m.content);
  assert.ok(new Set(asks).size >= asks.length * 0.9, `${new Set(asks).size} distinct of ${asks.length} user turns`);
  const sentences = c.messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => m.content.split(/(?<=[.?!])\s+/))
    .filter((s) => s.length > 20);
  assert.ok(sentences.length > 300);
  assert.equal(new Set(sentences).size, sentences.length);
});

test('contamination requests have distinct topics and code words, each named in its prompt; runs differ', () => {
  const r = contaminationRequests(8, 1, 'run-a', 0);
  assert.equal(new Set(r.map((x) => x.topic)).size, 8);
  assert.equal(new Set(r.map((x) => x.codeWord)).size, 8);
  for (const x of r) assert.ok(x.prompt.includes(x.codeWord) && x.prompt.includes(x.topic));
  assert.deepEqual(contaminationRequests(8, 1, 'run-a', 0), r);
  assert.notDeepEqual(contaminationRequests(8, 1, 'run-b', 0), r);
});
