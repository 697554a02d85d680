/**
 * Splits targets across replicas: a replica with --shard-index I --shard-count N probes
 * only the targets whose name hashes to I. FNV-1a is stable across processes and
 * versions, so a target stays on its replica until the shard count changes.
 */
export function shardOf(name: string, shardCount: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % shardCount;
}

export interface Shard {
  index: number;
  count: number;
}

export function inShard(name: string, shard: Shard | null): boolean {
  return shard === null || shard.count <= 1 || shardOf(name, shard.count) === shard.index;
}

/** Parses the shard flags or env (COHERENCY_SHARD_INDEX / COHERENCY_SHARD_COUNT); a StatefulSet pod name "x-3" also works as an index. */
export function parseShard(index: string | undefined, count: string | undefined): Shard | null | string {
  if (index === undefined && count === undefined) return null;
  if (index === undefined || count === undefined) return 'set both the shard index and the shard count';
  const ordinal = /^(?:.*-)?(\d+)$/.exec(index);
  const c = Number(count);
  if (!Number.isInteger(c) || c < 1) return `shard count must be a positive integer, got "${count}"`;
  if (!ordinal) return `shard index must be an integer (or a StatefulSet pod name ending in -N), got "${index}"`;
  const i = Number(ordinal[1]);
  if (i >= c) return `shard index ${i} must be below the shard count ${c}`;
  return { index: i, count: c };
}
