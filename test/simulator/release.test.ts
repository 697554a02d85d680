import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createReleaseSwitch, startSimulator, type Simulator } from '../../src/simulator/index.js';

describe('createReleaseSwitch', () => {
  test('release 1 for the first N requests, then release 2 answering from degradeTo', () => {
    const r = createReleaseSwitch({ after: 2, degradeTo: 'collapse-word' });
    assert.equal(r.current().release, 1);
    assert.deepEqual(
      [r.serve('healthy'), r.serve('healthy'), r.serve('healthy')].map((x) => [x.identity.release, x.model]),
      [
        [1, 'healthy'],
        [1, 'healthy'],
        [2, 'collapse-word'],
      ],
    );
    assert.equal(r.current().release, 2);
    assert.equal(r.current().systemFingerprint, 'fp_sim_r2');
    const fast = createReleaseSwitch({ after: 0, speedup: 4 });
    assert.equal(fast.serve('healthy').speedup, 4);
    assert.equal(createReleaseSwitch({ after: 1, speedup: 4 }).serve('healthy').speedup, 1, 'release 1 keeps its pace');
  });

  test('bad options are refused with what is wrong', () => {
    assert.throws(() => createReleaseSwitch({ after: -1 }), /release\.after must be a whole number >= 0, got -1/);
    assert.throws(() => createReleaseSwitch({ after: 1.5 }), /release\.after/);
    assert.throws(() => createReleaseSwitch({ after: 1, speedup: 0 }), /release\.speedup must be a number > 0, got 0/);
    assert.throws(() => createReleaseSwitch({ after: 1, degradeTo: 'no-such-scenario' }), /release\.degradeTo: .*no-such-scenario/);
  });
});

describe('the simulator with the release switch', () => {
  let sim: Simulator;
  after(() => sim?.close());

  test('headers, system_fingerprint, /version and the /models root change after N requests; the output degrades', async () => {
    sim = await startSimulator({ tokensPerSecond: 0, release: { after: 1, degradeTo: 'collapse-word@5' } });
    const origin = new URL(sim.url).origin;
    const chat = async () => {
      const res = await fetch(`${sim.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'healthy', messages: [{ role: 'user', content: 'Write about caches.' }], max_tokens: 60 }),
      });
      const body = (await res.json()) as { system_fingerprint?: string; model: string; choices: { message: { content: string } }[] };
      return { server: res.headers.get('server'), body };
    };
    const version = async () => ((await (await fetch(`${origin}/version`)).json()) as { version: string }).version;
    const root = async () => ((await (await fetch(`${sim.url}/models`)).json()) as { data: { root?: string }[] }).data[0]?.root;

    assert.equal(await version(), '1.0.0');
    const one = await chat();
    assert.equal(one.server, 'coherency-simulator/1.0.0');
    assert.equal(one.body.system_fingerprint, 'fp_sim_r1');
    assert.equal(await version(), '1.0.0', 'release 2 starts with request N + 1');
    assert.equal(await root(), '/models/simulated-r1');
    const two = await chat();
    assert.equal(two.server, 'coherency-simulator/2.0.0');
    assert.equal(two.body.system_fingerprint, 'fp_sim_r2');
    assert.equal(two.body.model, 'healthy', 'the model keeps its name: the build changed, not the model asked for');
    assert.notEqual(two.body.choices[0]?.message.content, one.body.choices[0]?.message.content);
    assert.equal(await version(), '2.0.0');
    assert.equal(await root(), '/models/simulated-r2');
  });

  test('without the switch: no server version, no system_fingerprint, no /version', async () => {
    const plain = await startSimulator({ tokensPerSecond: 0 });
    try {
      const res = await fetch(`${new URL(plain.url).origin}/version`);
      assert.equal(res.status, 404);
      await res.text();
      const chat = await fetch(`${plain.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'healthy', messages: [{ role: 'user', content: 'x' }], max_tokens: 5 }),
      });
      assert.equal(chat.headers.get('server'), null);
      assert.equal(((await chat.json()) as { system_fingerprint?: string }).system_fingerprint, undefined);
    } finally {
      await plain.close();
    }
  });
});
