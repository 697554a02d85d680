/**
 * The learned verdict's inputs: every figure the detectors publish, one slot each in a
 * stable named order, two flags per finding kind (a warn of it, a fail of it), and a few
 * generic figures of the text's tail that no detector judges but that carried weight in
 * the study of issue 37 (gzip of the tail, distinct n-grams, the longest repeat, line shape).
 *
 * The order is derived, never listed by hand: the figures of a few reference texts, which
 * between them fill every figure that can be null, are merged into one shape (keys in the
 * order they are declared), and the shape is flattened into dotted names. A figure that is
 * absent from a text (a null loop, no fenced block) keeps its slot and reads 0, beside a
 * `.present` flag. Strings are skipped; arrays of numbers take one slot per index; arrays of
 * objects (the word-salad front) take their count and the min and max of each number.
 *
 * Values are shaped for a linear model: counts are heavy-tailed, so every figure goes
 * through sign(x)·log1p(|x|); offsets (names ending in At, at, onset, start, end) become a share
 * of the text (-1 when there is none), since where a thing sits says more than its offset.
 */
import { deflateRawSync } from 'node:zlib';
import type { Finding } from './detectors/finding.js';
import { FINDING_KINDS } from './detectors/registry.js';
import { Engine } from './engine.js';

/** What featuresOf reads: the engine's figures (Engine.figures()). */
export type EngineFigures = ReturnType<Engine['figures']>;

/** Chars of the tail the gzip ratio, the mixed-word share and the n-grams read. */
const TAIL_CHARS = 2048;
/** Chars of the tail the longest repeated substring is sought in (binary search × hashing: ~11 passes). */
const REPEAT_CHARS = 1024;
/** Words of the tail the distinct n-gram ratios are counted over. */
const NGRAM_TOKENS = 200;

type Shape =
  | { t: 'num' }
  | { t: 'bool' }
  | { t: 'skip' }
  | { t: 'null' }
  | { t: 'arr'; len: number }
  | { t: 'objs'; item: ObjShape }
  | ObjShape;

interface ObjShape {
  t: 'obj';
  keys: Map<string, Shape>;
  /** Seen null in some reference text: gets a `.present` flag. */
  nullable: boolean;
}

function shapeOf(v: unknown): Shape {
  if (v === null || v === undefined) return { t: 'null' };
  if (typeof v === 'number') return { t: 'num' };
  if (typeof v === 'boolean') return { t: 'bool' };
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'number')) return { t: 'arr', len: v.length };
    let item: Shape = { t: 'obj', keys: new Map(), nullable: false };
    for (const x of v) item = merge(item, shapeOf(x));
    if (item.t !== 'obj') throw new Error(`verdict features: an array holds ${item.t} values, not objects or numbers`);
    return { t: 'objs', item };
  }
  if (typeof v === 'object') {
    const keys = new Map<string, Shape>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) keys.set(k, shapeOf(x));
    return { t: 'obj', keys, nullable: false };
  }
  return { t: 'skip' };
}

function merge(a: Shape, b: Shape): Shape {
  if (a.t === 'null') return b.t === 'obj' ? { ...b, nullable: true } : b.t === 'null' ? a : b;
  if (b.t === 'null') return a.t === 'obj' ? { ...a, nullable: true } : a;
  if (a.t === 'obj' && b.t === 'obj') {
    const keys = new Map(a.keys);
    for (const [k, s] of b.keys) keys.set(k, keys.has(k) ? merge(keys.get(k)!, s) : s);
    return { t: 'obj', keys, nullable: a.nullable || b.nullable };
  }
  if (a.t === 'arr' && b.t === 'arr') return { t: 'arr', len: Math.max(a.len, b.len) };
  if (a.t === 'objs' && b.t === 'objs') {
    const item = merge(a.item, b.item);
    return item.t === 'obj' ? { t: 'objs', item } : a;
  }
  if (a.t === 'arr' && b.t === 'objs') return b;
  if (a.t === 'objs' && b.t === 'arr') return a;
  return a;
}

/** How one slot is read from the figures. */
interface Slot {
  name: string;
  path: readonly string[];
  read: 'num' | 'pos' | 'bool' | 'present' | 'count' | 'min' | 'max' | 'posMin' | 'posMax';
  /** For min/max over an array of objects: the key inside each item. */
  key?: string;
  /** For arrays of numbers: the index. */
  index?: number;
}

const POSITION = /(?:At|^at|^onset|^start|Start|^end|End)$/;

function flatten(shape: Shape, path: string[], out: Slot[]): void {
  const name = path.join('.');
  switch (shape.t) {
    case 'num':
      out.push({ name, path, read: POSITION.test(path[path.length - 1] ?? '') ? 'pos' : 'num' });
      return;
    case 'bool':
      out.push({ name, path, read: 'bool' });
      return;
    case 'arr':
      for (let i = 0; i < shape.len; i++) out.push({ name: `${name}.${i}`, path, read: 'num', index: i });
      return;
    case 'objs':
      out.push({ name: `${name}.count`, path, read: 'count' });
      for (const [k, s] of shape.item.keys) {
        if (s.t !== 'num') continue;
        const pos = POSITION.test(k);
        out.push({ name: `${name}.${k}.min`, path, read: pos ? 'posMin' : 'min', key: k });
        out.push({ name: `${name}.${k}.max`, path, read: pos ? 'posMax' : 'max', key: k });
      }
      return;
    case 'obj':
      if (shape.nullable) out.push({ name: `${name}.present`, path, read: 'present' });
      for (const [k, s] of shape.keys) flatten(s, [...path, k], out);
      return;
    default:
      return;
  }
}

/**
 * Texts that between them fill every figure that can be null: a loop at the end, a loop the
 * text moves on from, a fenced block, prose windows for the salad front, a Chinese window.
 */
function referenceTexts(): string[] {
  const prose =
    'The committee met on Tuesday to review the budget, and after a long discussion it agreed that the new library ' +
    'should open in the spring. Several members asked whether the costs of the building had been checked twice. ';
  const recovered = 'We went back to the start of the road and looked again. '.repeat(40);
  const code = '```js\nfunction add(a, b) {\n  return a + b;\n}\nconsole.log(add(1, 2));\n```\n';
  return [
    prose.repeat(4) + recovered + prose + code + prose + 'and then the loop began '.repeat(60),
    `${prose}\n\n这是一个测试。我们今天去公园散步，天气很好。這是一個測試。\n`,
  ];
}

function buildSlots(): Slot[] {
  let shape: Shape | null = null;
  for (const text of referenceTexts()) {
    const e = new Engine(text.length);
    e.push(text);
    const s = shapeOf(e.figures());
    shape = shape ? merge(shape, s) : s;
  }
  if (!shape) throw new Error('verdict features: no reference text');
  const out: Slot[] = [];
  flatten(shape, [], out);
  return out;
}

const SLOTS: readonly Slot[] = buildSlots();

const GENERIC = [
  'text.logChars',
  'text.tailGzip',
  'text.distinct2',
  'text.distinct3',
  'text.distinct4',
  'text.repeatRaw',
  'text.repeatNormalised',
  'text.blankLines',
  'text.logLongestLine',
  'text.mixedWords',
] as const;

/** Every feature's name, in the order of featuresOf's output. */
export const FEATURE_NAMES: readonly string[] = Object.freeze([
  ...SLOTS.map((s) => s.name),
  ...FINDING_KINDS.flatMap((k) => [`finding.${k}.warn`, `finding.${k}.fail`]),
  ...GENERIC,
]);

/** The figures' dotted names alone (no findings, no generic figures): what a test checks every text against. */
export const FIGURE_SLOT_NAMES: readonly string[] = Object.freeze(SLOTS.map((s) => s.name));

function slog(x: number): number {
  return Number.isFinite(x) ? (x < 0 ? -Math.log1p(-x) : Math.log1p(x)) : 0;
}

function at(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

function readSlot(s: Slot, root: unknown, chars: number): number {
  const v = at(root, s.path);
  const share = (x: number) => (x < 0 ? -1 : x / Math.max(1, chars));
  switch (s.read) {
    case 'num': {
      const x = s.index === undefined ? v : Array.isArray(v) ? v[s.index] : undefined;
      return typeof x === 'number' ? slog(x) : 0;
    }
    case 'pos':
      return typeof v === 'number' ? share(v) : 0;
    case 'bool':
      return v === true ? 1 : 0;
    case 'present':
      return v !== null && v !== undefined ? 1 : 0;
    case 'count':
      return Array.isArray(v) ? slog(v.length) : 0;
    default: {
      if (!Array.isArray(v) || v.length === 0) return 0;
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (const item of v) {
        const x = (item as Record<string, unknown>)[s.key!];
        if (typeof x !== 'number') continue;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (lo > hi) return 0;
      if (s.read === 'min') return slog(lo);
      if (s.read === 'max') return slog(hi);
      return share(s.read === 'posMin' ? lo : hi);
    }
  }
}

/**
 * The features of one text: its engine figures, its findings (after the verdict rules) and
 * a way to read its chars (0 to figures.base.chars). Bounded work beyond the figures: the
 * tail figures read the last 2 KB, the line figures one pass over the text.
 */
export function featuresOf(
  figures: EngineFigures,
  findings: readonly Pick<Finding, 'kind' | 'severity'>[],
  slice: (from: number, to: number) => string,
): Float64Array {
  const out = new Float64Array(FEATURE_NAMES.length);
  const chars = figures.base.chars;
  let i = 0;
  for (const s of SLOTS) out[i++] = readSlot(s, figures, chars);
  for (const k of FINDING_KINDS) {
    out[i++] = findings.some((f) => f.kind === k && f.severity === 'warn') ? 1 : 0;
    out[i++] = findings.some((f) => f.kind === k && f.severity === 'fail') ? 1 : 0;
  }
  const g = genericFigures(slice(Math.max(0, chars - TAIL_CHARS), chars), slice(0, chars));
  out.set(g, i);
  return out;
}

/** The generic figures, in GENERIC order: the tail (last 2 KB) and the whole text (line shape only). */
export function genericFigures(tail: string, text: string): number[] {
  const bytes = Buffer.byteLength(tail, 'utf8');
  const gzip = bytes === 0 ? 1 : deflateRawSync(Buffer.from(tail, 'utf8'), { level: 6 }).length / bytes;
  const words = tail.split(/\s+/).filter((w) => w.length > 0);
  const last = words.slice(-NGRAM_TOKENS);
  const short = tail.slice(-REPEAT_CHARS);
  const lines = lineShape(text);
  let mixed = 0;
  for (const w of words) if (/\p{L}/u.test(w) && /\d/.test(w)) mixed++;
  return [
    Math.log1p(text.length),
    gzip,
    distinctShare(last, 2),
    distinctShare(last, 3),
    distinctShare(last, 4),
    short.length === 0 ? 0 : longestRepeat(short) / short.length,
    normalisedRepeatShare(short),
    lines.blankShare,
    Math.log1p(lines.longest),
    words.length === 0 ? 0 : mixed / words.length,
  ];
}

/** Distinct n-grams over n-grams of the words (1 when there are fewer than n words); n-grams compared by a 32-bit hash of word ids. */
export function distinctShare(words: readonly string[], n: number): number {
  const total = words.length - n + 1;
  if (total <= 0) return 1;
  const idOf = new Map<string, number>();
  const ids = words.map((w) => {
    let id = idOf.get(w);
    if (id === undefined) {
      id = idOf.size;
      idOf.set(w, id);
    }
    return id;
  });
  const seen = new Set<number>();
  for (let i = 0; i < total; i++) {
    let h = 0x811c9dc5 | 0;
    for (let k = 0; k < n; k++) h = Math.imul(h ^ ids[i + k]!, 0x01000193);
    seen.add(h);
  }
  return seen.size / total;
}

function normalisedRepeatShare(s: string): number {
  const n = s.replace(/\s+/g, ' ').replace(/\d/g, '0').toLowerCase();
  return n.length === 0 ? 0 : longestRepeat(n) / n.length;
}

/**
 * Length of the longest substring that occurs twice (the copies may overlap): binary search
 * on the length, each step hashing every window once and checking a hash match char by char.
 */
export function longestRepeat(s: string): number {
  let lo = 0;
  let hi = s.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (repeats(s, mid)) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

const BASE = 0x01000193;
/** Slots of the hash table of window starts: a power of two, twice REPEAT_CHARS. */
const SLOTS_REPEAT = 2048;
const startOf = new Int32Array(SLOTS_REPEAT);
const hashOf = new Int32Array(SLOTS_REPEAT);

/** Whether some substring of `len` chars occurs twice: every window's rolling hash into an open-addressing table, matches checked char by char. */
function repeats(s: string, len: number): boolean {
  if (len <= 0) return true;
  const n = s.length;
  if (n > SLOTS_REPEAT / 2) throw new Error(`verdict features: a repeat is sought in at most ${SLOTS_REPEAT / 2} chars, got ${n}`);
  const mask = SLOTS_REPEAT - 1;
  startOf.fill(-1);
  let pow = 1;
  for (let i = 1; i < len; i++) pow = Math.imul(pow, BASE);
  let h = 0;
  for (let i = 0; i < len; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  for (let i = 0; ; i++) {
    let slot = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const j = startOf[slot]!;
      if (j < 0) break;
      if (hashOf[slot] === h && sameChars(s, j, i, len)) return true;
      slot = (slot + 1) & mask;
    }
    startOf[slot] = i;
    hashOf[slot] = h;
    if (i + len >= n) return false;
    h = (Math.imul(h - Math.imul(s.charCodeAt(i), pow), BASE) + s.charCodeAt(i + len)) | 0;
  }
}

function sameChars(s: string, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

function lineShape(text: string): { blankShare: number; longest: number } {
  let lines = 0;
  let blank = 0;
  let longest = 0;
  let start = 0;
  let letters = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c === 10) {
      lines++;
      if (!letters) blank++;
      if (i - start > longest) longest = i - start;
      start = i + 1;
      letters = false;
    } else if (c !== 32 && c !== 9 && c !== 13) letters = true;
  }
  return { blankShare: text.length === 0 ? 0 : blank / lines, longest };
}
