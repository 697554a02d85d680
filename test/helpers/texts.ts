/**
 * Deterministic healthy prose for tests of the daemon (not of the analyzer, which has
 * its own corpus): sentences assembled from many independent slots so nothing repeats.
 */
const SUBJECTS = ['The scheduler', 'A replica', 'The storage engine', 'Each worker', 'The query planner', 'Our gateway', 'The cache layer', 'A background job', 'The tokenizer', 'The load balancer', 'This service', 'The index builder', 'Every shard', 'The compactor', 'A follower node'];
const VERBS = ['rebuilds', 'inspects', 'throttles', 'serialises', 'negotiates', 'evicts', 'verifies', 'partitions', 'replays', 'aggregates', 'compresses', 'schedules', 'forwards', 'annotates', 'reconciles'];
const OBJECTS = ['stale segments', 'pending writes', 'incoming requests', 'checksum blocks', 'lease renewals', 'snapshot deltas', 'histogram buckets', 'retry budgets', 'config revisions', 'cold partitions', 'prefix entries', 'audit records', 'connection pools', 'shard maps', 'vector clocks'];
const TAILS = ['before the next checkpoint', 'whenever latency climbs', 'under sustained load', 'after a leader change', 'once the queue drains', 'during rolling upgrades', 'at the edge of the cluster', 'while memory stays bounded', 'without blocking readers', 'as soon as a timeout fires', 'in small batches', 'when disks fill up', 'on every heartbeat', 'for the slowest tenants', 'between two compactions'];

export function healthyProse(words: number, seed = 1): string {
  let s = seed >>> 0 || 1;
  const rnd = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const out: string[] = [];
  let count = 0;
  let sentence = 0;
  while (count < words) {
    const n = 10 + rnd(900);
    const text = `${SUBJECTS[rnd(SUBJECTS.length)]} ${VERBS[rnd(VERBS.length)]} ${n} ${OBJECTS[rnd(OBJECTS.length)]} ${TAILS[rnd(TAILS.length)]}.`;
    out.push(text);
    count += text.split(' ').length;
    if (++sentence % 5 === 0) out.push('\n\n');
  }
  return out.join(' ').replace(/ \n\n /g, '\n\n');
}
