/**
 * Failed credentials, per client address and for all addresses together: two token buckets of
 * failures that refill at their rate per minute. Once the address's bucket or the shared one is
 * empty, a wrong token is answered 429 with Retry-After instead of 401, is not counted as a
 * failure, and costs nothing more; 3,703 wrong tokens a second were answered 401 before from one
 * address, and 10,215 a second from rotating addresses against the per-address bucket alone.
 *
 * The right token is never refused: the caller checks it before asking the limiter (a guesser
 * sharing Prometheus's address, or flooding from many, kept the right token at 429 before). So
 * the limiter bounds what wrong tokens cost (401 pages, failure counts, log lines), not how many
 * a client may try: what makes guessing hopeless is the token's length (server.authToken takes
 * 16 printable characters at least, 95^16 ≈ 4e31 tokens).
 *
 * Addresses are kept in insertion order up to `maxAddresses`; beyond it the oldest is forgotten
 * (its bucket refills at once, but the shared bucket still holds), so memory stays bounded.
 */
export interface AuthLimiterOptions {
  /** Failures allowed per address per minute (and in a burst). */
  perMinute: number;
  /** Failures allowed for all addresses together per minute (and in a burst). */
  globalPerMinute: number;
  /** Addresses tracked at once. */
  maxAddresses?: number;
  /** How often at most a line about wrong credentials is due (for all addresses together). */
  logEveryMs?: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** A log line due: what happened since the last one, across addresses. */
export interface LimiterReport {
  /** The address of the newest event. */
  address: string;
  failures: number;
  refused: number;
  /** Distinct addresses since the last line (counted up to MAX_COUNTED_ADDRESSES). */
  addresses: number;
}

const MAX_COUNTED_ADDRESSES = 1000;

export class AuthLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly shared: Bucket;
  private readonly maxAddresses: number;
  private readonly logEveryMs: number;
  private failures = 0;
  private refused = 0;
  private readonly seen = new Set<string>();
  private loggedAtMs = -Infinity;

  constructor(private readonly options: AuthLimiterOptions) {
    if (!(options.perMinute >= 1)) throw new RangeError(`perMinute must be >= 1, got ${options.perMinute}`);
    if (!(options.globalPerMinute >= options.perMinute)) {
      throw new RangeError(`globalPerMinute must be >= perMinute (${options.perMinute}), got ${options.globalPerMinute}`);
    }
    this.maxAddresses = options.maxAddresses ?? 10_000;
    this.logEveryMs = options.logEveryMs ?? 60_000;
    this.shared = { tokens: options.globalPerMinute, atMs: -Infinity };
  }

  private refill(b: Bucket, capacity: number, nowMs: number): Bucket {
    b.tokens = b.atMs === -Infinity ? capacity : Math.min(capacity, b.tokens + Math.max(0, nowMs - b.atMs) * (capacity / 60_000));
    b.atMs = nowMs;
    return b;
  }

  private bucket(address: string, nowMs: number): Bucket {
    let b = this.buckets.get(address);
    if (!b) {
      if (this.buckets.size >= this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value!);
      b = { tokens: this.options.perMinute, atMs: nowMs };
      this.buckets.set(address, b);
    }
    return this.refill(b, this.options.perMinute, nowMs);
  }

  /** Seconds for a bucket to hold a whole failure again, 0 when it does. */
  private static wait(b: Bucket, capacity: number): number {
    return b.tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - b.tokens) * 60) / capacity));
  }

  /** Seconds to wait before a wrong token from this address is answered 401 again, or 0 when it is now. */
  retryAfterSeconds(address: string, nowMs: number): number {
    const shared = AuthLimiter.wait(this.refill(this.shared, this.options.globalPerMinute, nowMs), this.options.globalPerMinute);
    const b = this.buckets.get(address);
    const own = b ? AuthLimiter.wait(this.bucket(address, nowMs), this.options.perMinute) : 0;
    return Math.max(shared, own);
  }

  /** Records a failed credential. Returns a report when a log line is due. */
  fail(address: string, nowMs: number): LimiterReport | null {
    const b = this.bucket(address, nowMs);
    b.tokens = Math.max(0, b.tokens - 1);
    const s = this.refill(this.shared, this.options.globalPerMinute, nowMs);
    s.tokens = Math.max(0, s.tokens - 1);
    this.failures++;
    return this.due(address, nowMs);
  }

  /** Records a wrong token answered 429. Returns a report when a log line is due. */
  refuse(address: string, nowMs: number): LimiterReport | null {
    this.refused++;
    return this.due(address, nowMs);
  }

  private due(address: string, nowMs: number): LimiterReport | null {
    if (this.seen.size < MAX_COUNTED_ADDRESSES) this.seen.add(address);
    if (nowMs - this.loggedAtMs < this.logEveryMs) return null;
    const report = { address, failures: this.failures, refused: this.refused, addresses: this.seen.size };
    this.failures = 0;
    this.refused = 0;
    this.seen.clear();
    this.loggedAtMs = nowMs;
    return report;
  }

  /** Addresses tracked now (tests). */
  get size(): number {
    return this.buckets.size;
  }
}
