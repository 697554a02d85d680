/**
 * Word lists for the healthy-text generator. Wide on purpose: the point of the
 * healthy scenario is prose whose compression ratio and n-gram statistics look
 * like a real model's long technical answer, so a repetition detector must not
 * flag it. Plurals and verb forms are derived by rule; irregular ones are listed.
 */

/** Singular nouns; `singular|plural` where the plural is irregular. */
export const NOUNS: readonly string[] = [
  'scheduler', 'allocator', 'replica', 'shard', 'index', 'buffer', 'queue', 'kernel', 'tokenizer', 'compiler',
  'parser', 'socket', 'worker', 'lease', 'checkpoint', 'snapshot', 'journal', 'page table', 'thread pool',
  'connection pool', 'load balancer', 'reverse proxy', 'rate limiter', 'circuit breaker', 'retry budget',
  'health check', 'readiness probe', 'sidecar', 'control plane', 'data plane', 'message broker', 'consumer group',
  'partition', 'offset', 'watermark', 'compaction job', 'garbage collector', 'heap', 'arena', 'slab', 'free list',
  'ring buffer', 'hash table', 'bloom filter', 'skip list', 'B-tree', 'trie', 'LSM tree', 'memtable',
  'write-ahead log', 'commit log', 'transaction', 'lock manager', 'mutex', 'semaphore', 'condition variable',
  'event loop', 'callback', 'promise', 'coroutine', 'goroutine', 'fiber', 'interrupt handler', 'page cache', 'TLB',
  'cache line', 'prefetcher', 'branch predictor', 'instruction decoder', 'vector unit', 'tensor core',
  'attention kernel', 'KV cache', 'prefix cache', 'batch', 'microbatch', 'sampler', 'logit processor',
  'embedding table', 'weight matrix|weight matrices', 'activation', 'gradient', 'optimizer', 'learning rate',
  'quantizer', 'calibration set', 'decoding loop', 'beam', 'draft model', 'verifier', 'prompt', 'completion',
  'context window', 'sequence', 'token budget', 'streaming response', 'request router', 'API gateway',
  'service mesh', 'DNS resolver', 'TLS handshake', 'certificate', 'key rotation', 'secret store', 'feature flag',
  'rollout', 'canary', 'rollback', 'deployment', 'manifest', 'container image', 'build cache', 'linker',
  'symbol table', 'debugger', 'profiler', 'flame graph', 'trace span', 'metric', 'histogram', 'counter', 'gauge',
  'alert rule', 'dashboard', 'runbook', 'on-call rotation', 'incident review', 'postmortem', 'regression test',
  'fuzzer', 'benchmark', 'test fixture', 'schema', 'migration', 'foreign key', 'query planner', 'cost model',
  'join', 'predicate', 'cursor', 'replication slot', 'follower', 'leader', 'quorum', 'election timeout',
  'heartbeat', 'vector clock', 'conflict resolver', 'merge function', 'CRDT', 'gossip protocol',
  'membership list', 'failure detector', 'backoff policy', 'timeout', 'deadline', 'cancellation token',
  'request context', 'middleware', 'handler', 'serializer', 'codec', 'compression level', 'checksum', 'frame',
  'packet', 'congestion window', 'retransmit timer', 'NIC queue', 'DMA engine', 'storage volume', 'block device',
  'filesystem', 'inode', 'directory entry', 'object store', 'bucket', 'lifecycle rule', 'access log',
  'audit trail', 'policy engine', 'permission model', 'tenant', 'quota', 'billing meter', 'cron job',
  'work queue', 'dead-letter queue', 'idempotency key', 'outbox table', 'event stream', 'projection',
  'read model', 'config file', 'environment variable', 'command-line flag', 'state machine', 'syntax tree',
  'type checker', 'code generator', 'register allocator', 'inliner', 'loop unroller', 'JIT compiler', 'bytecode',
  'interpreter', 'module graph', 'dependency resolver', 'lockfile', 'package registry', 'thread', 'process',
  'container', 'node', 'cluster', 'region', 'zone', 'pod', 'volume', 'endpoint', 'route', 'listener', 'upstream',
  'client', 'server', 'session', 'cookie', 'token', 'header', 'payload', 'response', 'request', 'stream',
  'pipeline', 'stage', 'operator', 'plugin', 'extension', 'driver', 'firmware', 'hypervisor', 'guest',
  'namespace', 'cgroup', 'allocation', 'reservation', 'budget', 'estimate', 'sample', 'trace', 'span', 'label',
  'exemplar', 'series', 'window', 'interval', 'epoch', 'generation', 'version', 'revision', 'patch', 'release',
];

export const ADJECTIVES: readonly string[] = [
  'stale', 'warm', 'cold', 'hot', 'idle', 'busy', 'saturated', 'fragmented', 'contiguous', 'sparse', 'dense',
  'bounded', 'unbounded', 'lazy', 'eager', 'optimistic', 'pessimistic', 'speculative', 'deterministic',
  'nondeterministic', 'idempotent', 'immutable', 'mutable', 'append-only', 'read-only', 'write-heavy',
  'read-heavy', 'latency-sensitive', 'throughput-bound', 'memory-bound', 'compute-bound', 'IO-bound',
  'partitioned', 'replicated', 'sharded', 'quantized', 'compressed', 'encrypted', 'versioned', 'tenant-scoped',
  'per-request', 'per-core', 'lock-free', 'wait-free', 'thread-safe', 'backpressured', 'batched', 'pipelined',
  'vectorized', 'fused', 'tiled', 'pinned', 'paged', 'memory-mapped', 'preallocated', 'oversubscribed',
  'underutilized', 'misconfigured', 'flaky', 'noisy', 'slow', 'fast', 'small', 'large', 'narrow', 'wide',
  'shallow', 'deep', 'primary', 'secondary', 'upstream', 'downstream', 'regional', 'global', 'local', 'remote',
  'ephemeral', 'durable', 'transient', 'persistent', 'incremental', 'partial', 'adaptive', 'static', 'dynamic',
  'rolling', 'experimental', 'legacy', 'default', 'custom', 'minimal', 'redundant', 'orphaned', 'detached',
  'degraded', 'healthy', 'overloaded', 'throttled', 'sticky', 'hierarchical', 'flat', 'hybrid', 'asynchronous',
  'synchronous', 'blocking', 'non-blocking', 'coarse-grained', 'fine-grained', 'sequential', 'parallel',
];

/** Transitive verbs, base form; irregular forms in VERB_FORMS. */
export const VERBS: readonly string[] = [
  'flush', 'evict', 'reorder', 'batch', 'split', 'merge', 'compact', 'replay', 'rebuild', 'validate', 'serialize',
  'deserialize', 'throttle', 'prefetch', 'pin', 'shard', 'replicate', 'snapshot', 'rotate', 'drain', 'cordon',
  'restart', 'reschedule', 'retry', 'cancel', 'coalesce', 'deduplicate', 'compress', 'decompress', 'encrypt',
  'sign', 'verify', 'hash', 'allocate', 'free', 'reclaim', 'resize', 'grow', 'shrink', 'index', 'scan', 'probe',
  'sample', 'trace', 'profile', 'instrument', 'log', 'export', 'aggregate', 'partition', 'route', 'forward',
  'buffer', 'stream', 'parse', 'tokenize', 'decode', 'encode', 'quantize', 'fuse', 'inline', 'unroll',
  'vectorize', 'schedule', 'preempt', 'migrate', 'promote', 'demote', 'fence', 'lock', 'acquire', 'release',
  'renew', 'expire', 'invalidate', 'refresh', 'warm', 'prune', 'truncate', 'append', 'commit', 'abort',
  'observe', 'measure', 'cap', 'limit', 'spill', 'checkpoint', 'restore', 'recover', 'reconcile', 'patch',
  'upgrade', 'deploy', 'stage', 'gate', 'annotate', 'audit', 'bisect', 'benchmark', 'cache', 'clone', 'debounce',
  'defer', 'detect', 'discard', 'emit', 'enqueue', 'dequeue', 'estimate', 'filter', 'hydrate', 'isolate', 'load',
  'map', 'mirror', 'normalize', 'offload', 'pause', 'poll', 'publish', 'rebalance', 'recompute', 'register',
  'reject', 'resolve', 'reuse', 'share', 'skip', 'sort', 'store', 'sweep', 'sync', 'tag', 'transfer', 'unload',
  'update', 'watch', 'wrap', 'write', 'read', 'build', 'hold', 'send', 'keep', 'run',
];

/** base → [third person, past participle, gerund] where the rules would get it wrong. */
export const VERB_FORMS: Readonly<Record<string, readonly [string, string, string]>> = {
  split: ['splits', 'split', 'splitting'],
  rebuild: ['rebuilds', 'rebuilt', 'rebuilding'],
  pin: ['pins', 'pinned', 'pinning'],
  grow: ['grows', 'grown', 'growing'],
  shrink: ['shrinks', 'shrunk', 'shrinking'],
  scan: ['scans', 'scanned', 'scanning'],
  log: ['logs', 'logged', 'logging'],
  commit: ['commits', 'committed', 'committing'],
  cap: ['caps', 'capped', 'capping'],
  free: ['frees', 'freed', 'freeing'],
  map: ['maps', 'mapped', 'mapping'],
  tag: ['tags', 'tagged', 'tagging'],
  wrap: ['wraps', 'wrapped', 'wrapping'],
  write: ['writes', 'written', 'writing'],
  read: ['reads', 'read', 'reading'],
  build: ['builds', 'built', 'building'],
  hold: ['holds', 'held', 'holding'],
  send: ['sends', 'sent', 'sending'],
  keep: ['keeps', 'kept', 'keeping'],
  run: ['runs', 'run', 'running'],
  skip: ['skips', 'skipped', 'skipping'],
  defer: ['defers', 'deferred', 'deferring'],
  cancel: ['cancels', 'canceled', 'canceling'],
  snapshot: ['snapshots', 'snapshotted', 'snapshotting'],
};

export const ADVERBIALS: readonly string[] = [
  'under sustained load', 'during compaction', 'on the hot path', 'at startup', 'after every deploy',
  'before the next heartbeat', 'per request', 'per tenant', 'in the background', 'on a separate core',
  'behind a feature flag', 'across availability zones', 'within a single transaction', 'between scrapes',
  'at the edge', 'inside the critical section', 'while the leader is fenced', 'under memory pressure',
  'after a failover', 'during a rolling restart', 'in steady state', 'at peak traffic', 'during warm-up',
  'on cold start', 'without blocking the event loop', 'inside the retry loop', 'for long-running streams',
  'on every checkpoint', 'when the queue is empty', 'once the budget runs out', 'at shutdown',
  'in the slow path', 'on the first request', 'after a schema change', 'in a canary region',
  'during the nightly batch', 'on older kernels', 'with huge pages enabled', 'behind the load balancer',
  'while draining connections', 'before acknowledging the write', 'after the lease expires',
  'in the same cache line', 'on the same NUMA node', 'under contention', 'in the common case',
  'on a best-effort basis', 'at the end of each epoch', 'whenever a follower lags', 'during leader election',
  'in read-only mode', 'with tracing turned on', 'on the replica side', 'at the storage layer',
];

export const SENTENCE_OPENERS: readonly string[] = [
  'In practice', 'Usually', 'Occasionally', 'In the worst case', 'By default', 'Historically',
  'In our experience', 'For now', 'In contrast', 'Surprisingly', 'On paper', 'At first glance', 'Fortunately',
  'Unfortunately', 'As a rule', 'Under the hood', 'More importantly', 'In production', 'In most deployments',
  'Counterintuitively', 'To be safe', 'In short', 'Meanwhile', 'Later on', 'For comparison',
];

/** People as subjects: [phrase, plural?] for verb agreement. */
export const PEOPLE: ReadonlyArray<readonly [string, boolean]> = [
  ['the on-call engineer', false], ['the storage team', false], ['reviewers', true], ['operators', true],
  ['most teams', true], ['the platform group', false], ['our SREs', true], ['the release manager', false],
  ['contributors', true], ['the database team', false], ['a careful reader', false], ['new hires', true],
  ['the inference team', false], ['maintainers', true], ['the networking folks', true], ['an attacker', false],
  ['the capacity planner', false], ['downstream consumers', true], ['the security team', false],
];

export const METRICS: readonly string[] = [
  'tail latency', 'p99 latency', 'throughput', 'memory usage', 'CPU time', 'cold-start time', 'the error rate',
  'recovery time', 'queue depth', 'GC pause time', 'write amplification', 'tokens per second',
  'time to first token', 'the cache hit rate', 'network egress', 'cost per request', 'p50 latency',
  'the retry rate', 'disk usage', 'context-switch count', 'the eviction rate', 'lock hold time',
  'startup time', 'replication lag', 'the timeout rate', 'inter-token latency', 'peak RSS', 'build time',
];

export const TRENDS: readonly string[] = [
  'drops sharply', 'roughly doubles', 'halves', 'stays flat', 'climbs steadily', 'spikes briefly',
  'barely moves', 'improves noticeably', 'regresses slightly', 'becomes predictable', 'settles quickly',
  'oscillates', 'creeps upward', 'falls off a cliff', 'levels out',
];

export const PLACES: readonly string[] = [
  'a single node', 'the staging cluster', 'an eight-GPU box', 'a laptop', 'a small VM', 'the bare-metal fleet',
  'a spot instance', 'the edge tier', 'an ARM server', 'a shared CI runner', 'the canary pool',
];

export const TIME_UNITS: readonly string[] = ['ms', 'seconds', 'minutes', 'µs'];
export const SIZE_UNITS: readonly string[] = ['KiB', 'MiB', 'GiB'];

export const LANGUAGES: readonly string[] = ['yaml', 'ts', 'python', 'bash', 'sql', 'go'];

export const KEY_SUFFIXES: readonly string[] = [
  'Seconds', 'Bytes', 'Count', 'Limit', 'Ratio', 'Enabled', 'Size', 'Ms', 'Max', 'Min', 'Interval', 'Threshold',
];
