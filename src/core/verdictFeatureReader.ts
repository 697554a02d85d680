/**
 * Reads a model's features from a text's figures by their names, for scoring at run time.
 * verdictFeatures.ts derives the names by running the engine on reference texts (which loads
 * every detector's data, the language identifier included); a model file already lists them,
 * so the analyzer reads each name's figure directly and a text that needs no language
 * identifier never loads it. Each name is read exactly as featuresOf reads its slot (a test
 * compares the two on corpus texts): a figure that is absent reads 0, counts go through
 * sign·log1p, offsets become a share of the text, `X.present` says X is there, and a list of
 * objects gives `X.count` and `X.key.min` / `X.key.max`.
 */
import type { Finding } from './detectors/finding.js';
import { FINDING_KINDS } from './detectors/registry.js';
import type { Engine } from './engine.js';
import { GENERIC, genericFigures, TAIL_CHARS } from './tailFigures.js';

/** Figure names whose value is an offset: read as a share of the text. */
export const POSITION = /(?:At|^at|^onset|^start|Start|^end|End)$/;

/** sign(x)·log1p(|x|): heavy-tailed counts on a scale a linear model can weigh; 0 for a non-finite value. */
export function slog(x: number): number {
  return Number.isFinite(x) ? (x < 0 ? -Math.log1p(-x) : Math.log1p(x)) : 0;
}

/** What a reader reads: the engine's figures (Engine.figures()), the findings after the verdict rules, the text's chars. */
export type FeatureReader = (
  figures: ReturnType<Engine['figures']>,
  findings: readonly Pick<Finding, 'kind' | 'severity'>[],
  slice: (from: number, to: number) => string,
) => Float64Array;

/**
 * A feature resolved once per model: a figure's path with, for each of its names, whether it
 * is an offset (POSITION) or an index into a list of numbers, so reading it is a walk with no
 * pattern matched; a finding flag as its `kind.severity` key.
 */
type Part =
  | { t: 'figure'; segs: readonly string[]; position: readonly boolean[]; index: readonly boolean[] }
  | { t: 'finding'; key: string }
  | { t: 'generic'; index: number };

type FigurePart = Extract<Part, { t: 'figure' }>;

/**
 * The value of a figure's feature, walked from `v`, what its first `from` names lead to (the
 * root for 0). The trie below starts here with the objects it has already read.
 */
function figureValue(v: unknown, p: FigurePart, from: number, chars: number): number {
  const { segs, position } = p;
  for (let i = from; i < segs.length; i++) {
    const k = segs[i]!;
    if (v === null || v === undefined || typeof v !== 'object') return 0;
    if (Array.isArray(v)) {
      const rest = segs.length - i;
      if (rest === 1 && k === 'count') return slog(v.length);
      if (rest === 1 && p.index[i]) {
        const x = v[Number(k)];
        return typeof x === 'number' ? slog(x) : 0;
      }
      const end = segs[i + 1];
      if (rest !== 2 || (end !== 'min' && end !== 'max') || v.length === 0) return 0;
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (const item of v) {
        const x = (item as Record<string, unknown> | null)?.[k];
        if (typeof x !== 'number') continue;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (lo > hi) return 0;
      const x = end === 'min' ? lo : hi;
      return position[i] ? share(x, chars) : slog(x);
    }
    // the flag of a figure that can be null (a loop, a fenced block): it is there
    if (k === 'present' && i === segs.length - 1 && !Object.hasOwn(v, 'present')) return 1;
    v = (v as Record<string, unknown>)[k];
  }
  if (typeof v === 'number') return position[segs.length - 1] ? share(v, chars) : slog(v);
  return v === true ? 1 : 0;
}

/** An offset as a share of the text; -1 (none) stays -1. */
function share(x: number, chars: number): number {
  return x < 0 ? -1 : x / Math.max(1, chars);
}

/**
 * The figures' names as a tree of their dotted paths, so an object on the way (detectors,
 * detectors.repetition, ...) is read once a text and not once for each of its features. A
 * node's features are read by figureValue from the node's value on, so each reads exactly
 * what a walk from the root would.
 */
interface PathNode {
  key: string;
  /** How many names lead here (the node's depth). */
  depth: number;
  children: PathNode[];
  /** The features whose path ends here, with their slot in the output. */
  ends: Array<{ slot: number; part: FigurePart }>;
  /** Every feature at or under this node. */
  under: Array<{ slot: number; part: FigurePart }>;
}

function pathTree(parts: readonly Part[]): PathNode {
  const root: PathNode = { key: '', depth: 0, children: [], ends: [], under: [] };
  parts.forEach((part, slot) => {
    if (part.t !== 'figure') return;
    let node = root;
    node.under.push({ slot, part });
    for (const k of part.segs) {
      let next = node.children.find((c) => c.key === k);
      if (!next) {
        next = { key: k, depth: node.depth + 1, children: [], ends: [], under: [] };
        node.children.push(next);
      }
      next.under.push({ slot, part });
      node = next;
    }
    node.ends.push({ slot, part });
  });
  return root;
}

/**
 * Reads every feature under `node`, whose value is `v`. Only through a plain object does the
 * walk go on child by child; an array, a missing value or a `present` flag (which asks whether
 * its key is there at all) is left to figureValue from here.
 */
function readTree(node: PathNode, v: unknown, chars: number, out: Float64Array): void {
  for (const { slot, part } of node.ends) out[slot] = figureValue(v, part, node.depth, chars);
  if (node.children.length === 0) return;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    for (const c of node.children) for (const { slot, part } of c.under) out[slot] = figureValue(v, part, node.depth, chars);
    return;
  }
  for (const c of node.children) {
    if (c.key === 'present') {
      for (const { slot, part } of c.under) out[slot] = figureValue(v, part, node.depth, chars);
    } else readTree(c, (v as Record<string, unknown>)[c.key], chars, out);
  }
}

const KINDS: ReadonlySet<string> = new Set(FINDING_KINDS);

function partOf(name: string, i: number): Part {
  const finding = /^finding\.([a-z_]+)\.(warn|fail)$/.exec(name);
  if (finding) {
    if (!KINDS.has(finding[1]!)) throw new Error(`verdict model: feature ${i} is ${name}, a flag of no finding kind of this analyzer`);
    return { t: 'finding', key: `${finding[1]!}.${finding[2]!}` };
  }
  const generic = (GENERIC as readonly string[]).indexOf(name);
  if (generic >= 0) return { t: 'generic', index: generic };
  if (/^(?:base|detectors)\.[\w.]+$/.test(name)) {
    const segs = name.split('.');
    return { t: 'figure', segs, position: segs.map((k) => POSITION.test(k)), index: segs.map((k) => /^\d+$/.test(k)) };
  }
  throw new Error(`verdict model: feature ${i} is ${name}, not a figure, finding flag or text figure this analyzer reads`);
}

/** A reader of the named features, in that order; a name this analyzer cannot read is an error naming it. */
export function featureReader(names: readonly string[]): FeatureReader {
  const parts = names.map(partOf);
  const needsGeneric = parts.some((p) => p.t === 'generic');
  const tree = pathTree(parts);
  return (figures, findings, slice) => {
    const chars = figures.base.chars;
    const out = new Float64Array(parts.length);
    readTree(tree, figures, chars, out);
    // the whole text's ratio is exact (every block deflated) for a text as short as the tail
    const whole = figures.base.compression.exact ? figures.base.compression.ratio : undefined;
    const generic = needsGeneric ? genericFigures(slice(Math.max(0, chars - TAIL_CHARS), chars), slice(0, chars), whole) : [];
    const flags = new Set<string>();
    for (const f of findings) flags.add(`${f.kind}.${f.severity}`);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.t === 'generic') out[i] = generic[p.index]!;
      else if (p.t === 'finding') out[i] = flags.has(p.key) ? 1 : 0;
    }
    return out;
  };
}
