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

function figureValue(root: unknown, p: FigurePart, chars: number): number {
  const { segs, position } = p;
  const share = (x: number) => (x < 0 ? -1 : x / Math.max(1, chars));
  let v = root;
  for (let i = 0; i < segs.length; i++) {
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
      return position[i] ? share(x) : slog(x);
    }
    // the flag of a figure that can be null (a loop, a fenced block): it is there
    if (k === 'present' && i === segs.length - 1 && !Object.hasOwn(v, 'present')) return 1;
    v = (v as Record<string, unknown>)[k];
  }
  if (typeof v === 'number') return position[segs.length - 1] ? share(v) : slog(v);
  return v === true ? 1 : 0;
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
  return (figures, findings, slice) => {
    const chars = figures.base.chars;
    const out = new Float64Array(parts.length);
    const generic = needsGeneric ? genericFigures(slice(Math.max(0, chars - TAIL_CHARS), chars), slice(0, chars)) : [];
    const flags = new Set<string>();
    for (const f of findings) flags.add(`${f.kind}.${f.severity}`);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.t === 'figure') out[i] = figureValue(figures, p, chars);
      else if (p.t === 'generic') out[i] = generic[p.index]!;
      else out[i] = flags.has(p.key) ? 1 : 0;
    }
    return out;
  };
}
