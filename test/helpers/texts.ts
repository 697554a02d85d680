import { createHealthyText } from '../../src/prose/healthyText.js';

/** Healthy technical prose of about `words` words, from the simulator's generator (deterministic per seed). */
export function healthyProse(words: number, seed = 1): string {
  const gen = createHealthyText(seed);
  let text = '';
  let count = 0;
  while (count < words) {
    const block = gen.nextBlock();
    text += block;
    count += block.split(/\s+/).filter(Boolean).length;
  }
  return text;
}
