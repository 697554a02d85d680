import assert from 'node:assert/strict';
import { StreamAccumulator, type StreamAccumulation } from '../../src/core/streamAccumulator.js';

/**
 * Replays a recorded stream's bytes cut at the given offsets (one push per piece, each at the
 * next millisecond), then ends it; also checks that the per-push deltas add up to the result.
 */
export function replaySse(bytes: Uint8Array, cuts: number[], acc: StreamAccumulator = new StreamAccumulator()): StreamAccumulation {
  let content = '';
  let reasoning = '';
  let last = 0;
  let t = 0;
  for (const cut of [...cuts, bytes.length]) {
    const d = acc.push(bytes.subarray(last, cut), t++);
    content += d.contentDelta;
    reasoning += d.reasoningDelta;
    last = cut;
  }
  const d = acc.end(t);
  content += d.contentDelta;
  reasoning += d.reasoningDelta;
  const result = acc.result();
  assert.equal(content, result.content, 'content deltas add up to the content');
  assert.equal(reasoning, result.reasoning, 'reasoning deltas add up to the reasoning');
  return result;
}
