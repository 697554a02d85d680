/**
 * The one redaction of a target's credentials, called by every path that keeps or shows what a
 * target sent: stream text and error messages (streamChat), plain exchanges (httpExchange), raw
 * captures (redactBytes), and what a target says about itself (its fingerprint). The secrets are
 * the request's own with every other secret of the configuration (joinSecrets, configSecrets.ts).
 *
 * A server that echoes a key rarely echoes it whole and as sent: it cuts it into an error
 * snippet ("invalid key sk-proj-abcdefghij…"), lower-cases it into a header, or quotes its last
 * characters. So any run of FRAGMENT_CHARS or more consecutive characters of a secret is
 * replaced, in any letter case, not only the whole secret. Eight characters of a random key are
 * 40+ bits: no text meets them by chance, and fewer would start to eat ordinary words. A secret
 * shorter than that is replaced where it occurs whole (and not at all under MIN_SECRET_CHARS,
 * which would shred every text).
 *
 * The scan looks for the secrets' 4-character blocks with the native indexOf (any 8-character
 * piece holds one whole) and grows each find along the secret: a few passes of memchr speed
 * over a text without the secret, linear in the text with it. With more blocks than a key or two
 * have (the configuration's every secret), each 4-character window of the text is looked up in a
 * table of the blocks instead, in one pass whose cost does not grow with the number of secrets.
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
      // each cookie's value long enough to be a token; the names ("session=") and short
      // values ("theme=dark") are no secret, and redacting them would eat ordinary words
      for (const pair of v.split(';')) {
        const value = pair.slice(pair.indexOf('=') + 1).trim();
        if (value.length >= FRAGMENT_CHARS) add(value);
      }
      continue;
    }
    const scheme = /auth/i.test(name) ? AUTH_SCHEME.exec(v) : null;
    const credential = scheme ? (scheme[1] as string) : v;
    add(credential);
    // Basic: a server may echo the decoded "user:password"; the password is the secret
    if (scheme && /^basic\s/i.test(v)) {
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) add(decoded.slice(colon + 1));
    }
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * A request's own secrets with the other secrets of the configuration (configSecrets.ts), once
 * each, longest first: targets behind one origin can echo each other's keys.
 */
export function joinSecrets(own: readonly string[], others: readonly string[] | undefined): string[] {
  if (!others || others.length === 0) return [...own];
  return [...new Set([...own, ...others])].sort((a, b) => b.length - a.length);
}

/**
 * Any piece of FRAGMENT_CHARS characters of a secret holds one of its BLOCK-character blocks
 * that start at a multiple of BLOCK: the blocks are found with the native indexOf, and each
 * find is grown left and right along the secret as far as the text goes on matching it.
 */
const BLOCK = FRAGMENT_CHARS / 2;

/** A secret, folded, as the scanner looks for it: N is a string (text) or a Buffer (bytes). */
interface Needle<N> {
  /** The folded secret's code units (or bytes). */
  codes: ArrayLike<number>;
  /** Its blocks and where each starts in it; empty for a short secret. */
  blocks: Array<{ at: number; needle: N }>;
  /** A short secret, matched whole only; null for a long one. */
  whole: N | null;
}

interface Haystack<N> {
  length: number;
  find(needle: N, from: number): number;
  at(i: number): number;
}

function needleOf<N extends string | Buffer>(folded: N): Needle<N> {
  let codes: ArrayLike<number> = folded as Buffer;
  if (typeof folded === 'string') {
    const units: number[] = [];
    for (let i = 0; i < folded.length; i++) units.push(folded.charCodeAt(i));
    codes = units;
  }
  if (folded.length < FRAGMENT_CHARS) return { codes, blocks: [], whole: folded };
  const blocks: Array<{ at: number; needle: N }> = [];
  for (let at = 0; at + BLOCK <= folded.length; at += BLOCK) blocks.push({ at, needle: folded.slice(at, at + BLOCK) as N });
  return { codes, blocks, whole: null };
}

/**
 * Past this many blocks in all (more than two keys of 56 characters), one pass over the text
 * that looks each of its 4-character windows up in a table of the blocks beats one indexOf pass
 * per block: the configuration's every secret is redacted from every text (configSecrets.ts),
 * and a daemon of 20 targets has some 300 blocks. Either way finds the same pieces.
 */
export const BLOCKS_FOR_ONE_PASS = 32;

/** The blocks of long secrets by a hash of their code units, and a bitmap of the hashes (most windows of a text miss it). */
interface BlockTable {
  seen: Uint8Array;
  byHash: Map<number, Array<{ codes: ArrayLike<number>; at: number }>>;
}

const HASH_BITS = 16;
/** FNV-style mixing of the four code units, then a multiplicative hash's top bits (prose's 4-grams spread over the table). */
const blockHash = (a: number, b: number, c: number, d: number): number =>
  Math.imul(Math.imul(Math.imul(Math.imul(a, 0x01000193) ^ b, 0x01000193) ^ c, 0x01000193) ^ d, 0x9e3779b1) >>> (32 - HASH_BITS);

const blockTables = new WeakMap<object, BlockTable>();

function blockTableOf<N>(needles: ReadonlyArray<Needle<N>>): BlockTable {
  let table = blockTables.get(needles);
  if (table) return table;
  table = { seen: new Uint8Array(1 << HASH_BITS), byHash: new Map() };
  for (const n of needles)
    for (const { at } of n.blocks) {
      const c = n.codes;
      const h = blockHash(c[at] as number, c[at + 1] as number, c[at + 2] as number, c[at + 3] as number);
      table.seen[h] = 1;
      const list = table.byHash.get(h);
      if (list) list.push({ codes: c, at });
      else table.byHash.set(h, [{ codes: c, at }]);
    }
  blockTables.set(needles, table);
  return table;
}

/**
 * The piece of a secret (codes) around a find of its block at `at` in the text at `t`, grown
 * left and right as far as the text goes on matching it; null when shorter than FRAGMENT_CHARS.
 */
function grow<N>(hay: Haystack<N>, codes: ArrayLike<number>, at: number, t: number): [number, number] | null {
  let a = t;
  let p = at;
  while (a > 0 && p > 0 && hay.at(a - 1) === codes[p - 1]) {
    a--;
    p--;
  }
  let b = t + BLOCK;
  let q = at + BLOCK;
  while (b < hay.length && q < codes.length && hay.at(b) === codes[q]) {
    b++;
    q++;
  }
  return b - a >= FRAGMENT_CHARS ? [a, b] : null;
}

/** Every find of every block of the long secrets, with one pass over the text (see BLOCKS_FOR_ONE_PASS). */
function blocksInOnePass<N>(hay: Haystack<N>, needles: ReadonlyArray<Needle<N>>, found: Array<[number, number]>): void {
  const { seen, byHash } = blockTableOf(needles);
  const len = hay.length;
  if (len < BLOCK) return;
  let c1 = hay.at(0);
  let c2 = hay.at(1);
  let c3 = hay.at(2);
  for (let t = 0; t + BLOCK <= len; t++) {
    const c0 = c1;
    c1 = c2;
    c2 = c3;
    c3 = hay.at(t + 3);
    const h = blockHash(c0, c1, c2, c3);
    if (seen[h] === 0) continue;
    for (const { codes, at } of byHash.get(h) as Array<{ codes: ArrayLike<number>; at: number }>) {
      if (codes[at] !== c0 || codes[at + 1] !== c1 || codes[at + 2] !== c2 || codes[at + 3] !== c3) continue;
      const r = grow(hay, codes, at, t);
      if (r) found.push(r);
    }
  }
}

/**
 * The ranges [start, end) of the text that are a piece of a secret, sorted and disjoint
 * (overlapping pieces are one range; pieces that only touch stay two).
 */
function coveredRanges<N>(hay: Haystack<N>, needles: ReadonlyArray<Needle<N>>): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let blocks = 0;
  for (const n of needles) {
    blocks += n.blocks.length;
    if (n.whole === null) continue;
    const size = n.codes.length;
    for (let i = hay.find(n.whole, 0); i >= 0; i = hay.find(n.whole, i + size)) found.push([i, i + size]);
  }
  if (blocks > BLOCKS_FOR_ONE_PASS) blocksInOnePass(hay, needles, found);
  else
    for (const n of needles)
      for (const { at, needle } of n.blocks)
        for (let t = hay.find(needle, 0); t >= 0; t = hay.find(needle, t + 1)) {
          const r = grow(hay, n.codes, at, t);
          if (r) found.push(r);
        }
  if (found.length < 2) return found;
  found.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
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
function foldText(text: string): string {
  const lower = (text.includes('\u0130') ? text.replace(/\u0130/g, 'i') : text).toLowerCase();
  return lower.length === text.length ? lower : text;
}

/** Bytes with ASCII letters in lower case (a raw capture is compared byte for byte otherwise). */
function foldBytes(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    out[i] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
  }
  return out;
}

const textNeedles = new WeakMap<readonly string[], Array<Needle<string>>>();

function needlesOfText(secrets: readonly string[]): Array<Needle<string>> {
  let n = textNeedles.get(secrets);
  if (!n) {
    n = secrets.filter((s) => s.length >= MIN_SECRET_CHARS).map((s) => needleOf(foldText(s)));
    textNeedles.set(secrets, n);
  }
  return n;
}

function textRanges(text: string, needles: ReadonlyArray<Needle<string>>): Array<[number, number]> {
  const folded = foldText(text);
  return coveredRanges<string>(
    { length: folded.length, find: (n, from) => folded.indexOf(n, from), at: (i) => folded.charCodeAt(i) },
    needles,
  );
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
  const ranges = textRanges(text, needlesOfText(secrets));
  return ranges.length === 0 ? text : rebuild(text, ranges);
}

const REDACTED_BYTES = Buffer.from(REDACTED);

/**
 * Bytes with every piece of a secret replaced by "[redacted]", compared as UTF-8 bytes (ASCII
 * letters in any case) so that a capture keeps every other byte as it came: a server that
 * echoes the key must not put it on disk.
 */
export function redactBytes(bytes: Buffer, secrets: readonly string[]): Buffer {
  const needles = secrets.filter((s) => s.length >= MIN_SECRET_CHARS).map((s) => needleOf(foldBytes(Buffer.from(s, 'utf8'))));
  if (needles.length === 0) return bytes;
  const folded = foldBytes(bytes);
  const ranges = coveredRanges<Buffer>(
    { length: folded.length, find: (n, from) => folded.indexOf(n, from), at: (i) => folded[i] as number },
    needles,
  );
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
  private readonly needles: Array<Needle<string>> | null;

  constructor(private readonly secrets: readonly string[]) {
    this.needles = secrets.some((s) => s.length >= MIN_SECRET_CHARS) ? needlesOfText(secrets) : null;
  }

  /** The redacted text that can be given out now (possibly ''). */
  push(text: string): string {
    if (!this.needles) return text;
    const all = this.held + text;
    const ranges = textRanges(all, this.needles);
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
