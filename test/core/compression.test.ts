import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { CompressionTracker } from '../../src/core/compression.js';
import { TextStore } from '../../src/core/textStore.js';

/** A text of n chars that repeats itself at every distance (words drawn again and again, now and then a copied stretch), so that a window too small would lose matches. */
function textOf(n: number, seed: number): string {
  const words = 'leader follower term vote commit index log entry heartbeat timeout quorum snapshot élection 日志'.split(' ');
  let a = seed;
  let out = '';
  while (out.length < n) {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    if ((a >>> 8) % 13 === 0 && out.length > 40) {
      const from = (a >>> 12) % (out.length - 20);
      out += out.slice(from, from + 20 + ((a >>> 4) % 60));
    } else out += words[(a >>> 16) % words.length]! + ((a >>> 3) % 7 === 0 ? '.\n' : ' ');
  }
  return out.slice(0, n);
}

function ratioOf(text: string): number {
  const store = new TextStore();
  store.append(text);
  const tracker = new CompressionTracker(store);
  tracker.advance(text.length);
  return tracker.figures(text.length).ratio;
}

describe('CompressionTracker', () => {
  it('gives the ratio of a plain level-6 deflate (32 KB window) for texts of one block, of every size around the window steps', () => {
    const sizes = [0, 1, 2, 50];
    for (let bits = 9; bits <= 15; bits++) for (const d of [-300, -263, -262, -261, -200, -1, 0, 1]) sizes.push((1 << bits) + d);
    for (const n of sizes.filter((k) => k <= 32768)) {
      for (const seed of [1, 2, 3]) {
        const text = textOf(Math.max(0, n), seed);
        const bytes = Buffer.from(text, 'utf8');
        const want = bytes.length === 0 ? 1 : (deflateRawSync(bytes, { level: 6 }).length + 18) / bytes.length;
        assert.equal(ratioOf(text), want, `${text.length} chars, seed ${seed}`);
      }
    }
  });

  it('keeps each stream its own dictionary when two are fed in turns (the block bytes are shared scratch), sampled blocks and snapshots included', () => {
    const texts = [textOf(300_000, 7), textOf(290_000, 8)];
    const stores = texts.map(() => new TextStore());
    const trackers = stores.map((s) => new CompressionTracker(s));
    const at = [0, 0];
    for (let step = 0; at[0]! < texts[0]!.length || at[1]! < texts[1]!.length; step++) {
      for (const k of [0, 1]) {
        const text = texts[k]!;
        if (at[k]! >= text.length) continue;
        const next = Math.min(text.length, at[k]! + 5_000 + ((step * 7_919 + k * 3_001) % 20_000));
        stores[k]!.append(text.slice(at[k], next));
        at[k] = next;
        trackers[k]!.advance(next);
        // a snapshot now and then deflates the unfinished block with the kept dictionary, which must survive it
        if (step % 3 === k) assert.equal(trackers[k]!.figures(next).ratio, ratioOf(text.slice(0, next)), `stream ${k} at ${next}`);
      }
    }
    for (const k of [0, 1]) assert.equal(trackers[k]!.figures(texts[k]!.length).ratio, ratioOf(texts[k]!), `stream ${k} whole`);
  });
});
