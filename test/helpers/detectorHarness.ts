import type { JudgeContext } from '../../src/core/detectors/detector.js';
import { DETECTORS, type Figures } from '../../src/core/detectors/registry.js';
import { Engine } from '../../src/core/engine.js';
import type { Finding } from '../../src/core/finding.js';
import { resolveThresholds } from '../../src/core/streamAnalyzer.js';
import type { Thresholds } from '../../src/core/thresholds.js';

export interface HarnessOptions {
  deltas?: readonly string[];
  finishReason?: string | null;
  thresholds?: Partial<Thresholds>;
  /** The language the prompt asked the answer in (JudgeContext.expectLanguage). */
  expectLanguage?: string;
}

type Name = keyof Figures;

/**
 * Runs the whole engine on a text (its tokenizer feeds every detector) and returns one
 * detector's figures and its own findings, before the verdict rules combine them.
 */
export function detect<K extends Name>(name: K, text: string, o: HarnessOptions = {}): { figures: Figures[K]; findings: Finding[] } {
  const thresholds = resolveThresholds(o.thresholds);
  const engine = new Engine();
  for (const d of o.deltas ?? [text]) engine.push(d);
  const { base, detectors } = engine.figures();
  const detector = DETECTORS.find((d) => d.name === name);
  if (!detector) throw new Error(`no detector ${name}`);
  const ctx: JudgeContext = { chars: base.chars, finishReason: o.finishReason ?? null, expectLanguage: o.expectLanguage ?? null };
  const judge = detector.judge as (f: object, t: Record<string, number>, c: JudgeContext) => Finding[];
  const findings = judge(detectors[name], thresholds as unknown as Record<string, number>, ctx);
  return { figures: detectors[name], findings };
}

/** "kind/severity" of each finding, for compact table assertions. */
export function verdicts(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.kind}/${f.severity}${f.certain ? '!' : ''}`);
}

/** Cuts a text into random pieces (deterministic per seed), surrogate pairs included. */
export function randomSplit(text: string, seed: number, maxPiece = 40): string[] {
  let x = seed >>> 0 || 1;
  const rand = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(rand() * maxPiece);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}
