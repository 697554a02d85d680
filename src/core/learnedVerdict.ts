/**
 * The learned verdict (issue 37): the model's probability for a finished text, the figures
 * that moved it most, and, in 'learned' mode, how that probability and the hard rules decide
 * together. Measured out of fold on the real development texts (docs/detection.md, "The
 * learned verdict"), the rules alone catch more than the model adds to them, so 'rules' stays
 * the default and the score is shown there as information; 'learned' is for a model retrained
 * on one's own labelled outputs, where it may do better.
 */
import type { AnalysisScore, VerdictMode } from './analysisTypes.js';
import { fmt } from './detectors/finding.js';
import { type Finding, finding } from './finding.js';
import { type FeatureReader, featureReader } from './verdictFeatureReader.js';
import { scoreOf, type VerdictModel } from './verdictModel.js';

export const VERDICT_MODES: readonly VerdictMode[] = ['rules', 'learned'];

const readers = new WeakMap<VerdictModel, FeatureReader>();

/** The reader of a model's features, made once per model (it checks every name). */
export function readerOf(model: VerdictModel): FeatureReader {
  let r = readers.get(model);
  if (!r) {
    r = featureReader(model.features);
    readers.set(model, r);
  }
  return r;
}

/** The model's score of a finished text from its figures and its rules' findings (what it was trained on). */
export function scoreText(
  figures: Parameters<FeatureReader>[0],
  findings: readonly Pick<Finding, 'kind' | 'severity'>[],
  slice: (from: number, to: number) => string,
  model: VerdictModel,
  mode: VerdictMode,
): AnalysisScore {
  const s = scoreOf(readerOf(model)(figures, findings, slice), model);
  return {
    mode,
    probability: s.probability,
    threshold: model.threshold,
    warnFrom: model.warnAbove,
    contributions: s.contributions.map(([name, c]) => [name, round(c)]),
  };
}

/** The figures that pushed the probability up, largest first, as a reason names them. */
function pushedUp(score: AnalysisScore, most = 3): string {
  const up = score.contributions.filter(([, c]) => c > 0).slice(0, most);
  return up.length === 0 ? 'no figure stands out' : `most from ${up.map(([n, c]) => `${n} +${fmt(c)}`).join(', ')}`;
}

/**
 * The findings under the learned verdict. A hard fail (certain, or of a kind in model.hardKinds)
 * stays a fail. Other fails stay fails only when the probability reaches the threshold, and
 * become warnings below it. A probability at the threshold with no fail left adds a `learned`
 * fail; one in the warn band adds a `learned` warning only when no finding is left to warn
 * already (a demoted fail says the same thing, once).
 */
export function learnedFindings(findings: readonly Finding[], score: AnalysisScore, model: VerdictModel): Finding[] {
  const p = score.probability;
  const failing = p >= score.threshold;
  const hard = new Set(model.hardKinds);
  const out = findings.map((f): Finding => {
    if (f.severity !== 'fail' || f.certain || hard.has(f.kind) || failing) return f;
    return {
      ...f,
      severity: 'warn',
      detail: `${f.detail} (a warning under the learned verdict: probability ${fmt(p, 3)} is under its threshold ${fmt(score.threshold, 3)})`,
    };
  });
  if (out.some((f) => f.severity === 'fail')) return out;
  const line = `the learned model gives a probability of degeneration of ${fmt(p, 3)}`;
  if (failing)
    out.push(finding('learned', 'fail', -1, `${line}, at or above its threshold ${fmt(score.threshold, 3)}: ${pushedUp(score)}`));
  else if (p >= score.warnFrom && out.length === 0)
    out.push(finding('learned', 'warn', -1, `${line}, in its warn band from ${fmt(score.warnFrom, 3)}: ${pushedUp(score)}`));
  return out;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
