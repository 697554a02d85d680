/** A seeded random source: same seed, same sequence. Returns numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny and fast; statistical quality is ample for generating prose. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts, so a request's seed and messages yield a stable 32-bit seed. */
export function hashSeed(...parts: ReadonlyArray<string | number | null | undefined>): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    const text = `${part === null || part === undefined ? '\u0000' : String(part)}\u0001`;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash >>> 0;
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick: empty list');
  return items[Math.floor(rng() * items.length)] as T;
}

/** Integer in [low, high], both inclusive. */
export function intBetween(rng: Rng, low: number, high: number): number {
  return low + Math.floor(rng() * (high - low + 1));
}

export function chance(rng: Rng, probability: number): boolean {
  return rng() < probability;
}
