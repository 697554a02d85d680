/**
 * Failed credentials per client address: a token bucket of `perMinute` failures that refills at
 * that rate. Once an address has used it up, every guarded request from it is answered 429 with
 * Retry-After until a failure's worth has refilled, whether its token is right or not (else the
 * 429 and the 200 would tell a guesser apart from a caller). 3,703 guesses a second were
 * answered before; now 10 a minute are, and the log gets one line a minute per address.
 *
 * Addresses are kept in insertion order up to `maxAddresses`; beyond it the oldest is forgotten
 * (its bucket refills at once), so memory stays bounded whatever the number of addresses.
 */
export interface AuthLimiterOptions {
  /** Failures allowed per address per minute (and in a burst). */
  perMinute: number;
  /** Addresses tracked at once. */
  maxAddresses?: number;
  /** How often at most one address's failures are logged. */
  logEveryMs?: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
  /** Failures and refusals since the last log line for this address. */
  failures: number;
  refused: number;
  loggedAtMs: number;
}

/** A log line due for one address: what happened since the last one. */
export interface LimiterReport {
  address: string;
  failures: number;
  refused: number;
}

export class AuthLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly maxAddresses: number;
  private readonly logEveryMs: number;

  constructor(private readonly options: AuthLimiterOptions) {
    if (!(options.perMinute >= 1)) throw new RangeError(`perMinute must be >= 1, got ${options.perMinute}`);
    this.perMs = options.perMinute / 60_000;
    this.maxAddresses = options.maxAddresses ?? 10_000;
    this.logEveryMs = options.logEveryMs ?? 60_000;
  }

  private bucket(address: string, nowMs: number): Bucket {
    let b = this.buckets.get(address);
    if (!b) {
      if (this.buckets.size >= this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value!);
      b = { tokens: this.options.perMinute, atMs: nowMs, failures: 0, refused: 0, loggedAtMs: -Infinity };
      this.buckets.set(address, b);
    }
    b.tokens = Math.min(this.options.perMinute, b.tokens + Math.max(0, nowMs - b.atMs) * this.perMs);
    b.atMs = nowMs;
    return b;
  }

  /** Seconds to wait before this address may try again (a whole failure's worth refilled), or 0 when it may now. */
  retryAfterSeconds(address: string, nowMs: number): number {
    const b = this.buckets.get(address);
    if (!b) return 0;
    this.bucket(address, nowMs);
    return b.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
  }

  /** Records a failed credential. Returns a report when this address is due a log line. */
  fail(address: string, nowMs: number): LimiterReport | null {
    const b = this.bucket(address, nowMs);
    b.tokens = Math.max(0, b.tokens - 1);
    b.failures++;
    return this.due(address, b, nowMs);
  }

  /** Records a request refused with 429. Returns a report when this address is due a log line. */
  refuse(address: string, nowMs: number): LimiterReport | null {
    const b = this.bucket(address, nowMs);
    b.refused++;
    return this.due(address, b, nowMs);
  }

  private due(address: string, b: Bucket, nowMs: number): LimiterReport | null {
    if (nowMs - b.loggedAtMs < this.logEveryMs) return null;
    const report = { address, failures: b.failures, refused: b.refused };
    b.failures = 0;
    b.refused = 0;
    b.loggedAtMs = nowMs;
    return report;
  }

  /** Addresses tracked now (tests). */
  get size(): number {
    return this.buckets.size;
  }
}
