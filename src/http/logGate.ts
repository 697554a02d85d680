/**
 * At most one log line a minute per kind of event, with the number of lines held back since the
 * last one. Any client can make the daemon answer 404, 403 or 421 as fast as it can send, and a
 * page of another site can do it from an <img> loop: a warn line per answer wrote 128k-178k
 * lines (33-37 MB) in 5 s, 73 MB in 3 s with 15 KB URLs. The kinds are few by construction (a
 * status and a route pattern), so the log stays at a few lines a minute whatever the load.
 */
export interface LogGateOptions {
  /** Lines per kind at most once in this many ms (default one minute). */
  everyMs?: number;
  /** Kinds tracked at once; beyond, new kinds share one (default 1,000). */
  maxKinds?: number;
}

interface KindState {
  loggedAtMs: number;
  suppressed: number;
}

/** The kind that new kinds share once maxKinds are tracked. */
export const OTHER_KIND = 'other';

export class LogGate {
  private readonly kinds = new Map<string, KindState>();
  private readonly everyMs: number;
  private readonly maxKinds: number;

  constructor(options: LogGateOptions = {}) {
    this.everyMs = options.everyMs ?? 60_000;
    this.maxKinds = options.maxKinds ?? 1000;
    if (!(this.everyMs >= 0)) throw new RangeError(`everyMs must be >= 0, got ${this.everyMs}`);
    if (!(this.maxKinds >= 1)) throw new RangeError(`maxKinds must be >= 1, got ${this.maxKinds}`);
  }

  /**
   * Whether a line of `kind` may be written now: null when it is held back, else the number of
   * lines of that kind held back since the last one written (0 for the first).
   */
  pass(kind: string, nowMs: number): number | null {
    let key = kind;
    if (!this.kinds.has(key) && this.kinds.size >= this.maxKinds) key = OTHER_KIND;
    let state = this.kinds.get(key);
    if (!state) {
      state = { loggedAtMs: -Infinity, suppressed: 0 };
      this.kinds.set(key, state);
    }
    if (nowMs - state.loggedAtMs < this.everyMs) {
      state.suppressed++;
      return null;
    }
    const held = state.suppressed;
    state.suppressed = 0;
    state.loggedAtMs = nowMs;
    return held;
  }

  /** Kinds tracked now (tests). */
  get size(): number {
    return this.kinds.size;
  }
}

/** Longest URL a log line carries; the rest is counted, not written. */
export const LOGGED_URL_CHARS = 200;

/** `url` cut to LOGGED_URL_CHARS, saying how much was left out. */
export function loggedUrl(url: string): string {
  return url.length <= LOGGED_URL_CHARS ? url : `${url.slice(0, LOGGED_URL_CHARS)}…(${url.length - LOGGED_URL_CHARS} more chars)`;
}
