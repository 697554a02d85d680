/**
 * The learned verdict's model (src/core/verdictModel.json, written by `npm run train`): a
 * logistic regression over standardised features, so scoring a text is one dot product.
 * The file also carries what it was fitted on (a hash of the training data), the threshold
 * set on out-of-fold scores, the warn band, the rule kinds that stay hard fails, and the
 * cross-validation table; the loader checks its shape so a hand-edited or truncated file
 * fails with the field that is wrong instead of scoring garbage.
 */

/** One row of the cross-validation table: a held-out fold or set, the rules alone beside the combined verdict. */
export interface CvRow {
  heldOut: string;
  degenerate: number;
  healthy: number;
  rulesRecall: number;
  /** Recall of the hard rules alone (certain fails and the hard kinds): what the combined verdict adds the model to. */
  hardRecall: number;
  combinedRecall: number;
  rulesFalseFails: number;
  combinedFalseFails: number;
}

export interface VerdictModel {
  version: 1;
  /** Feature names, in the order of the weights (FEATURE_NAMES when fitted). */
  features: string[];
  means: number[];
  /** Standard deviations (1 for a feature that was constant in training). */
  scales: number[];
  weights: number[];
  bias: number;
  /** Fail at or above this probability. */
  threshold: number;
  /** Warn at or above this probability (below the threshold). */
  warnAbove: number;
  /** Finding kinds whose fail is a fail whatever the model says (besides every certain fail). */
  hardKinds: string[];
  /** sha256 of the training data (names, labels, texts, in order). */
  trainingSha256: string;
  /** L2 strength, class and source weights: how it was fitted. */
  training: Record<string, number | string>;
  cv: CvRow[];
}

export interface Score {
  probability: number;
  /** The five features that moved the score most, by |weight · standardised value|, with that contribution. */
  contributions: Array<[string, number]>;
}

/** Contributions a score lists: the features that moved it most. */
const TOP = 5;

/** The probability of degeneration and the features that contributed most. */
export function scoreOf(features: ArrayLike<number>, model: VerdictModel): Score {
  const n = model.weights.length;
  if (features.length !== n) throw new Error(`verdict model: ${features.length} features given, the model has ${n}`);
  let z = model.bias;
  // the TOP largest |contribution| kept in order as they come (ties by index, so the list is stable): no sort of every feature
  const top: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const c = (model.weights[i]! * (features[i]! - model.means[i]!)) / model.scales[i]!;
    z += c;
    if (c === 0 || (top.length === TOP && Math.abs(c) <= Math.abs(top[TOP - 1]![1]))) continue;
    let k = top.length < TOP ? top.length : TOP - 1;
    while (k > 0 && Math.abs(top[k - 1]![1]) < Math.abs(c)) k--;
    top.splice(k, 0, [i, c]);
    if (top.length > TOP) top.pop();
  }
  return {
    probability: 1 / (1 + Math.exp(-z)),
    contributions: top.map(([i, c]) => [model.features[i]!, c]),
  };
}

function fail(what: string): never {
  throw new Error(`verdict model: ${what}`);
}

function numbers(o: Record<string, unknown>, key: string, n: number): number[] {
  const v = o[key];
  if (!Array.isArray(v)) fail(`${key} must be an array of numbers`);
  if (v.length !== n) fail(`${key} has ${v.length} entries, features has ${n}`);
  v.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${key}[${i}] is ${JSON.stringify(x)}, not a finite number`);
  });
  return v as number[];
}

function probability(o: Record<string, unknown>, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) fail(`${key} must be a probability from 0 to 1, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * Checks a parsed model file and returns it typed. With `expected` (FEATURE_NAMES), the
 * model's features must be exactly those, in that order: a model fitted on another
 * analyzer's figures would score the wrong slots.
 */
export function loadVerdictModel(json: unknown, expected?: readonly string[]): VerdictModel {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) fail('the file must hold a JSON object');
  const o = json as Record<string, unknown>;
  if (o['version'] !== 1) fail(`version must be 1, got ${JSON.stringify(o['version'])}`);
  const features = o['features'];
  if (!Array.isArray(features) || features.length === 0 || !features.every((f) => typeof f === 'string')) {
    fail('features must be a non-empty array of names');
  }
  const n = features.length;
  if (expected) {
    if (n !== expected.length) fail(`has ${n} features, this analyzer computes ${expected.length}: retrain with npm run train`);
    const i = features.findIndex((f, k) => f !== expected[k]);
    if (i >= 0) fail(`feature ${i} is ${features[i]}, this analyzer computes ${expected[i]} there: retrain with npm run train`);
  }
  const scales = numbers(o, 'scales', n);
  const zero = scales.findIndex((s) => !(s > 0));
  if (zero >= 0) fail(`scales[${zero}] must be above 0, got ${scales[zero]}`);
  const bias = o['bias'];
  if (typeof bias !== 'number' || !Number.isFinite(bias)) fail(`bias must be a finite number, got ${JSON.stringify(bias)}`);
  const threshold = probability(o, 'threshold');
  const warnAbove = probability(o, 'warnAbove');
  if (warnAbove > threshold) fail(`warnAbove (${warnAbove}) must not be above threshold (${threshold})`);
  const hardKinds = o['hardKinds'];
  if (!Array.isArray(hardKinds) || !hardKinds.every((k) => typeof k === 'string')) fail('hardKinds must be an array of finding kinds');
  const sha = o['trainingSha256'];
  if (typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha)) fail('trainingSha256 must be 64 hex digits');
  const training = o['training'];
  if (training === null || typeof training !== 'object' || Array.isArray(training)) fail('training must be an object');
  const cv = o['cv'];
  if (!Array.isArray(cv)) fail('cv must be an array of rows');
  return {
    version: 1,
    features: features as string[],
    means: numbers(o, 'means', n),
    scales,
    weights: numbers(o, 'weights', n),
    bias,
    threshold,
    warnAbove,
    hardKinds: hardKinds as string[],
    trainingSha256: sha,
    training: training as Record<string, number | string>,
    cv: cv as CvRow[],
  };
}
