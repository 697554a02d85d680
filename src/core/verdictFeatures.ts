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
import type { Finding } from './detectors/finding.js';
import { FINDING_KINDS } from './detectors/registry.js';
import { Engine } from './engine.js';
import { GENERIC, genericFigures, TAIL_CHARS } from './tailFigures.js';
import { POSITION, slog } from './verdictFeatureReader.js';

export { distinctShare, genericFigures, longestRepeat } from './tailFigures.js';

/** What featuresOf reads: the engine's figures (Engine.figures()). */
export type EngineFigures = ReturnType<Engine['figures']>;

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
 * text moves on from, a fenced block, prose windows for the salad front, a Chinese window, a
 * short text of paragraphs parted by blank lines.
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
    `${prose}\n\n${prose}\n\n\n${prose}\n\n${prose}`,
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

/** Every feature's name, in the order of featuresOf's output. */
export const FEATURE_NAMES: readonly string[] = Object.freeze([
  ...SLOTS.map((s) => s.name),
  ...FINDING_KINDS.flatMap((k) => [`finding.${k}.warn`, `finding.${k}.fail`]),
  ...GENERIC,
]);

/** The figures' dotted names alone (no findings, no generic figures): what a test checks every text against. */
export const FIGURE_SLOT_NAMES: readonly string[] = Object.freeze(SLOTS.map((s) => s.name));

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
