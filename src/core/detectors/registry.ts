/**
 * The detectors, in the order their findings are listed (the first failing one names the
 * collapse). A new detector is one module and one entry here: its thresholds join
 * Thresholds and DEFAULT_THRESHOLDS, its kinds FINDING_KINDS, its figures Figures.
 */
import type { ThresholdTable } from './detector.js';
import { glued } from './glued.js';
import { language } from './language/language.js';
import { languageId } from './languageId/languageId.js';
import { repetition } from './repetition/repetition.js';
import { specialTokens } from './specialTokens.js';
import { stutter } from './stutter.js';
import { whitespace } from './whitespace.js';

export const DETECTORS = [whitespace, repetition, glued, stutter, specialTokens, language, languageId] as const;

type Registered = (typeof DETECTORS)[number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type TableOf<D> = D extends { thresholds: infer T } ? T : never;

/** Every threshold of every detector, by name. */
export type Thresholds = { [K in keyof UnionToIntersection<TableOf<Registered>>]: number };
/** Every finding kind a detector can report: a bounded set, safe as a metric label. */
export type FindingKind = Registered['kinds'][number];
/** Every detector's figures for one text, by detector name. */
export type Figures = { [D in Registered as D['name']]: ReturnType<D['figures']> };

function thresholdTable(): ThresholdTable {
  const table: Record<string, ThresholdTable[string]> = {};
  for (const d of DETECTORS) {
    for (const [name, t] of Object.entries(d.thresholds)) {
      if (name in table) throw new Error(`threshold ${name} is declared by two detectors`);
      table[name] = t;
    }
  }
  return table;
}

/** Each threshold with its default and why, by name. */
export const THRESHOLD_TABLE: ThresholdTable = thresholdTable();

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze(
  Object.fromEntries(Object.entries(THRESHOLD_TABLE).map(([k, t]) => [k, t.value])) as Thresholds,
);

export const FINDING_KINDS: readonly FindingKind[] = [...new Set(DETECTORS.flatMap((d) => d.kinds as readonly FindingKind[]))];
