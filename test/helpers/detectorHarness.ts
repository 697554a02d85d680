import assert from 'node:assert/strict';
import type { Detector, TextDetector } from '../../src/core/detectors/detector.js';
import { runDetector } from '../../src/core/detectors/runDetector.js';
import { createRng } from '../../src/simulator/random.js';
import type { Detectors, Figures } from '../../src/core/detectors/registry.js';
import { Engine } from '../../src/core/engine.js';
import type { Finding } from '../../src/core/finding.js';
import { resolveThresholds } from '../../src/core/streamAnalyzer.js';
import type { Thresholds } from '../../src/core/thresholds.js';

export interface HarnessOptions {
  deltas?: readonly string[];
  finishReason?: string | null;
  thresholds?: Partial<Thresholds>;
}

/**
 * Runs the whole engine on a text (its tokenizer feeds every detector) and returns one
 * detector's figures and its own findings, before the verdict rules combine them.
 */
export function detect<K extends keyof Detectors>(
  name: K,
  text: string,
  o: HarnessOptions = {},
): { figures: Figures[K]; findings: Finding[] } {
  const thresholds = resolveThresholds(o.thresholds);
  const engine = new Engine(thresholds);
  for (const d of o.deltas ?? [text]) engine.push(d);
  const { base, detectors } = engine.figures();
  const detector = engine.detectors[name] as unknown as Detector;
  const findings = detector.judge(detectors[name], { thresholds, chars: base.chars, finishReason: o.finishReason ?? null });
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

/**
 * The detector contract on a text-level detector: pushed in random pieces, with snapshots
 * taken now and then, it ends in the figures of the whole text, and each snapshot equals the
 * figures of the text so far.
 */
export function assertSplitInvariant<F extends object>(create: () => TextDetector<F>, texts: readonly string[], seed: number): void {
  const r = createRng(seed);
  for (const text of texts) {
    const whole = runDetector(create(), text);
    for (let trial = 0; trial < 4; trial++) {
      const d = create();
      let at = 0;
      while (at < text.length) {
        const len = 1 + Math.floor(r() * (trial === 0 ? 2 : trial === 1 ? 9 : 300));
        const piece = text.slice(at, at + len);
        d.push(piece, at);
        at += piece.length;
        if (r() < 0.2) {
          const so = at;
          const view = { length: so, slice: (a: number, b: number) => text.slice(a, Math.min(b, so)) };
          const snap = d.figures(view);
          assert.deepEqual(d.figures(view), snap, 'two snapshots in a row agree');
          assert.deepEqual(snap, runDetector(create(), text.slice(0, so)).figures, 'a snapshot equals the figures of the text so far');
        }
      }
      const view = { length: text.length, slice: (a: number, b: number) => text.slice(a, b) };
      assert.deepEqual(d.figures(view), whole.figures, `split ${trial} of ${JSON.stringify(text.slice(0, 30))}`);
    }
  }
}
