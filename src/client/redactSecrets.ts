/**
 * The one redaction of a target's credentials, called by every path that keeps or shows what a
 * target sent: stream text and error messages (streamChat), plain exchanges (httpExchange), raw
 * captures (redactBytes), and what a target says about itself (its fingerprint).
 *
 * A server that echoes a key rarely echoes it whole and as sent: it cuts it into an error
 * snippet ("invalid key sk-proj-abcdefghij…"), lower-cases it into a header, or quotes its last
 * characters. So any run of FRAGMENT_CHARS or more consecutive characters of a secret is
 * replaced, in any letter case, not only the whole secret. Eight characters of a random key are
 * 40+ bits: no text meets them by chance, and fewer would start to eat ordinary words. A secret
 * shorter than that is replaced where it occurs whole (and not at all under MIN_SECRET_CHARS,
 * which would shred every text).
 *
 * The scan is one pass over the text with a rolling hash of its FRAGMENT_CHARS-character
 * windows, checked against the windows of the secrets: linear in the text, whatever the
 * number of fragments.
 */

/** The replacement of a credential in anything kept or shown. */
export const REDACTED = '[redacted]';
/** Consecutive characters of a secret that are redacted wherever they appear. */
export const FRAGMENT_CHARS = 8;
/** A credential value shorter than this is not treated as a secret. */
export const MIN_SECRET_CHARS = 4;

/** Header names whose values are credentials (Authorization, Azure's api-key, x-api-key, cookies…). */
export const SECRET_HEADER = /auth|key|token|secret|cookie|password|signature/i;

/** An auth scheme before the credential ("Bearer sk-…", "Basic dXNl…"): the word is no secret, what follows is. */
const AUTH_SCHEME = /^[A-Za-z][A-Za-z0-9._-]*\s+(\S.*)$/;

/** The secrets a request's headers carry, longest first: the credential of each credential header, without its auth scheme. */
export function secretsOf(headers: Record<string, string>): string[] {
  const out = new Set<string>();
  const add = (v: string) => {
    const s = v.trim();
    if (s.length >= MIN_SECRET_CHARS) out.add(s);
  };
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string' || !SECRET_HEADER.test(name)) continue;
    const v = value.trim();
    if (/cookie/i.test(name)) {
      // each cookie's value; the names ("session=") are no secret
      for (const pair of v.split(';')) add(pair.slice(pair.indexOf('=') + 1));
      continue;
    }
    const scheme = /auth/i.test(name) ? AUTH_SCHEME.exec(v) : null;
    add(scheme ? (scheme[1] as string) : v);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

// Windows are hashed as h = c0·B^7 + c1·B^6 + … + c7 (mod 2^32), slid one character at a time.
const BASE = 0x01000193;
let top = 1;
for (let i = 1; i < FRAGMENT_CHARS; i++) top = Math.imul(top, BASE);
const TOP = top;

/** The secrets, folded, as the scanner looks for them. */
interface Needles {
  /** Hashes of every FRAGMENT_CHARS window of the long secrets (a filter; hits are checked). */
  hashes: Set<number>;
  /** The windows themselves, as strings of folded code units. */
  windows: Set<string>;
  /** The short secrets, folded: whole occurrences only. */
  whole: number[][];
}

type Codes = ArrayLike<number>;

function windowKey(codes: Codes, at: number): string {
  let s = '';
  for (let k = 0; k < FRAGMENT_CHARS; k++) s += String.fromCharCode(codes[at + k] as number);
  return s;
}

function needlesOf(folded: readonly Codes[]): Needles {
  const n: Needles = { hashes: new Set(), windows: new Set(), whole: [] };
  for (const codes of folded) {
    if (codes.length < FRAGMENT_CHARS) {
      n.whole.push(Array.from(codes));
      continue;
    }
    let h = 0;
    for (let i = 0; i < codes.length; i++) {
      h =
        i < FRAGMENT_CHARS
          ? (Math.imul(h, BASE) + (codes[i] as number)) | 0
          : slide(h, codes[i - FRAGMENT_CHARS] as number, codes[i] as number);
      if (i >= FRAGMENT_CHARS - 1) {
        n.hashes.add(h);
        n.windows.add(windowKey(codes, i - FRAGMENT_CHARS + 1));
      }
    }
  }
  return n;
}

function slide(h: number, out: number, into: number): number {
  return (Math.imul((h - Math.imul(out, TOP)) | 0, BASE) + into) | 0;
}

/**
 * The ranges [start, end) of `codes` that are a piece of a secret, sorted and disjoint
 * (overlapping pieces are one range; pieces that only touch stay two).
 */
function coveredRanges(codes: Codes, n: Needles): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const len = codes.length;
  if (n.hashes.size > 0 && len >= FRAGMENT_CHARS) {
    let h = 0;
    for (let i = 0; i < len; i++) {
      h =
        i < FRAGMENT_CHARS
          ? (Math.imul(h, BASE) + (codes[i] as number)) | 0
          : slide(h, codes[i - FRAGMENT_CHARS] as number, codes[i] as number);
      if (i < FRAGMENT_CHARS - 1 || !n.hashes.has(h)) continue;
      const start = i - FRAGMENT_CHARS + 1;
      if (!n.windows.has(windowKey(codes, start))) continue;
      const last = found[found.length - 1];
      if (last && start < last[1]) last[1] = i + 1;
      else found.push([start, i + 1]);
    }
  }
  if (n.whole.length === 0) return found;
  for (const needle of n.whole) {
    for (let i = 0; i + needle.length <= len; i++) {
      let k = 0;
      while (k < needle.length && codes[i + k] === needle[k]) k++;
      if (k === needle.length) {
        found.push([i, i + needle.length]);
        i += needle.length - 1;
      }
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of found) {
    const last = merged[merged.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/**
 * The text in lower case, one code unit for one (so positions agree with the text's):
 * "İ" is the one character whose lower case is two units, and it is folded to "i" first.
 */
function foldText(text: string): Uint16Array {
  const lower = (text.includes('\u0130') ? text.replace(/\u0130/g, 'i') : text).toLowerCase();
  const out = new Uint16Array(text.length);
  if (lower.length === text.length) for (let i = 0; i < lower.length; i++) out[i] = lower.charCodeAt(i);
  else for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** Bytes with ASCII letters in lower case (a raw capture is compared byte for byte otherwise). */
function foldBytes(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    out[i] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
  }
  return out;
}

const textNeedles = new WeakMap<readonly string[], Needles>();

function needlesOfText(secrets: readonly string[]): Needles {
  let n = textNeedles.get(secrets);
  if (!n) {
    n = needlesOf(secrets.filter((s) => s.length >= MIN_SECRET_CHARS).map(foldText));
    textNeedles.set(secrets, n);
  }
  return n;
}

function rebuild(text: string, ranges: ReadonlyArray<readonly [number, number]>, from = 0, to = text.length): string {
  let out = '';
  let at = from;
  for (const [s, e] of ranges) {
    out += text.slice(at, s) + REDACTED;
    at = e;
  }
  return out + text.slice(at, to);
}

/** `text` with every piece of a secret (FRAGMENT_CHARS or more characters, any case; a short secret whole) replaced by "[redacted]". */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || text.length < MIN_SECRET_CHARS) return text;
  const ranges = coveredRanges(foldText(text), needlesOfText(secrets));
  return ranges.length === 0 ? text : rebuild(text, ranges);
}

const REDACTED_BYTES = Buffer.from(REDACTED);

/**
 * Bytes with every piece of a secret replaced by "[redacted]", compared as UTF-8 bytes (ASCII
 * letters in any case) so that a capture keeps every other byte as it came: a server that
 * echoes the key must not put it on disk.
 */
export function redactBytes(bytes: Buffer, secrets: readonly string[]): Buffer {
  const long = secrets.filter((s) => s.length >= MIN_SECRET_CHARS).map((s) => foldBytes(Buffer.from(s, 'utf8')));
  if (long.length === 0) return bytes;
  const ranges = coveredRanges(foldBytes(bytes), needlesOf(long));
  if (ranges.length === 0) return bytes;
  const parts: Buffer[] = [];
  let at = 0;
  for (const [s, e] of ranges) {
    parts.push(bytes.subarray(at, s), REDACTED_BYTES);
    at = e;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

/** Characters a stream keeps past a cut that falls inside a piece of a secret, at most (a bound for a pathological secret). */
const MAX_HELD_CHARS = 64 * 1024;

/**
 * Redacts text that arrives in pieces (the reads of a body), so that a secret split across two
 * reads is caught: the last FRAGMENT_CHARS - 1 characters wait for the next piece (any window
 * that starts before the cut is then whole), and a cut that would fall inside a piece of a
 * secret moves back to its start, so the piece is replaced once, whole. Each character is
 * scanned a bounded number of times: linear in the body.
 */
export class StreamRedactor {
  private held = '';
  private readonly needles: Needles | null;

  constructor(private readonly secrets: readonly string[]) {
    this.needles = secrets.some((s) => s.length >= MIN_SECRET_CHARS) ? needlesOfText(secrets) : null;
  }

  /** The redacted text that can be given out now (possibly ''). */
  push(text: string): string {
    if (!this.needles) return text;
    const all = this.held + text;
    const ranges = coveredRanges(foldText(all), this.needles);
    let cut = Math.max(0, all.length - (FRAGMENT_CHARS - 1));
    const inside = ranges.find(([s, e]) => s < cut && cut < e);
    let done = ranges.filter(([, e]) => e <= cut);
    if (inside) {
      if (all.length - inside[0] <= MAX_HELD_CHARS) cut = inside[0];
      else done = [...done, [inside[0], cut]];
    }
    this.held = all.slice(cut);
    return rebuild(all, done, 0, cut);
  }

  /** The rest, redacted: the end of the text. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return redactText(rest, this.secrets);
  }
}
