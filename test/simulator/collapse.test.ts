import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { postChat, readStream } from './sseHelpers.js';

/** The smallest p such that tokens repeat with period p from the start. */
function period(tokens: string[]): number {
  for (let p = 1; p <= tokens.length / 3; p++) {
    if (tokens.every((token, i) => i < p || token === tokens[i - p])) return p;
  }
  return tokens.length;
}

describe('simulator collapse scenarios', { timeout: 20_000 }, () => {
  let sim: Simulator;
  let healthy: string[];
  before(async () => {
    sim = await startSimulator();
    healthy = (await readStream(await postChat(sim, { model: 'healthy', max_tokens: 2000 }))).contentDeltas;
  });
  after(() => sim.close());

  const cases: Array<[string, (loop: string) => void]> = [
    ['collapse-sentence', (loop) => assert.match(loop, /^( [A-Z][^.?!]+[.?!])\1+/)],
    ['collapse-word', (loop) => assert.match(loop, /^( the){50,}/)],
    ['collapse-paragraph', (loop) => assert.match(loop, /^(\n\n[^\n]{40,})\1+/)],
    ['collapse-tags', (loop) => assert.match(loop, /^(<\/div>){50,}/)],
    ['collapse-punct', (loop) => assert.match(loop, /^!{200,}$/)],
  ];

  for (const [scenario, checkLoop] of cases) {
    it(`${scenario}@500 is healthy for 500 tokens, then loops until max_tokens`, async () => {
      const stream = await readStream(await postChat(sim, { model: `${scenario}@500`, max_tokens: 2000 }));
      assert.equal(stream.contentDeltas.length, 2000);
      assert.equal(stream.finishReason, 'length');
      assert.equal(stream.usage?.completion_tokens, 2000);
      // Same request, same healthy prefix as the healthy scenario, up to the onset.
      assert.deepEqual(stream.contentDeltas.slice(0, 500), healthy.slice(0, 500));
      const loop = stream.contentDeltas.slice(500);
      assert.ok(period(loop) < 400, `${scenario}: period ${period(loop)}`);
      checkLoop(loop.join(''));
    });
  }

  it('starts the collapse at 40% of max_tokens by default', async () => {
    const stream = await readStream(await postChat(sim, { model: 'collapse-word', max_tokens: 1000 }));
    assert.deepEqual(stream.contentDeltas.slice(0, 400), healthy.slice(0, 400));
    assert.ok(stream.contentDeltas.slice(400).every((token) => token === ' the'));
  });

  it('whitespace sends only whitespace, or after N healthy tokens with @N', async () => {
    const stream = await readStream(await postChat(sim, { model: 'whitespace', max_tokens: 500 }));
    assert.equal(stream.contentDeltas.length, 500);
    assert.match(stream.contentDeltas.join(''), /^\s+$/);
    assert.ok(new Set(stream.contentDeltas).size > 1, 'varied whitespace');

    const later = await readStream(await postChat(sim, { model: 'whitespace@100', max_tokens: 500 }));
    assert.deepEqual(later.contentDeltas.slice(0, 100), healthy.slice(0, 100));
    assert.match(later.contentDeltas.slice(100).join(''), /^\s+$/);
  });
});
