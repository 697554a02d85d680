// A weighted, L2-penalised logistic regression fitted by Newton's method (IRLS) in float64,
// every sum in a fixed order: the same rows give the same bytes, with no randomness at all.

export interface Standardised {
  means: number[];
  scales: number[];
}

/** Per-feature mean and standard deviation over the rows (scale 1 for a constant feature). */
export function standardiser(rows: readonly Float64Array[], d: number): Standardised {
  const means = new Array<number>(d).fill(0);
  const scales = new Array<number>(d).fill(0);
  for (const r of rows) for (let j = 0; j < d; j++) means[j]! += r[j]!;
  for (let j = 0; j < d; j++) means[j] = means[j]! / Math.max(1, rows.length);
  for (const r of rows) {
    for (let j = 0; j < d; j++) {
      const x = r[j]! - means[j]!;
      scales[j]! += x * x;
    }
  }
  for (let j = 0; j < d; j++) {
    const s = Math.sqrt(scales[j]! / Math.max(1, rows.length));
    scales[j] = s > 1e-9 ? s : 1;
  }
  return { means, scales };
}

export interface Fitted extends Standardised {
  weights: number[];
  bias: number;
  iterations: number;
}

/**
 * Minimises sum_i w_i·logloss_i + lambda/2·|weights|² (the bias is not penalised) on the
 * standardised rows. The sample weights are scaled to sum to the number of rows first, so
 * lambda means the same whatever the weights' units.
 */
export function fitLogistic(
  rows: readonly Float64Array[],
  labels: readonly number[],
  sampleWeights: readonly number[],
  lambda: number,
): Fitted {
  const n = rows.length;
  const d = rows[0]?.length ?? 0;
  const st = standardiser(rows, d);
  const p = d + 1;
  // standardised design with the bias as the last column
  const x = rows.map((r) => {
    const z = new Float64Array(p);
    for (let j = 0; j < d; j++) z[j] = (r[j]! - st.means[j]!) / st.scales[j]!;
    z[d] = 1;
    return z;
  });
  let total = 0;
  for (const w of sampleWeights) total += w;
  const w = sampleWeights.map((v) => (v * n) / total);
  const beta = new Float64Array(p);
  let iterations = 0;
  for (; iterations < 50; iterations++) {
    const h = new Float64Array(p * p);
    const g = new Float64Array(p);
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      let z = 0;
      for (let j = 0; j < p; j++) z += xi[j]! * beta[j]!;
      const pr = 1 / (1 + Math.exp(-z));
      const r = w[i]! * (pr - labels[i]!);
      const c = w[i]! * Math.max(pr * (1 - pr), 1e-12);
      for (let j = 0; j < p; j++) {
        const v = xi[j]!;
        if (v === 0) continue;
        g[j]! += r * v;
        const cv = c * v;
        const row = j * p;
        for (let k = 0; k <= j; k++) h[row + k]! += cv * xi[k]!;
      }
    }
    for (let j = 0; j < d; j++) {
      g[j]! += lambda * beta[j]!;
      h[j * p + j]! += lambda;
    }
    h[d * p + d]! += 1e-9;
    const step = choleskySolve(h, g, p);
    let change = 0;
    for (let j = 0; j < p; j++) {
      beta[j]! -= step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    if (change < 1e-10) {
      iterations++;
      break;
    }
  }
  return { ...st, weights: Array.from(beta.subarray(0, d)), bias: beta[d]!, iterations };
}

/** Solves H s = g for a symmetric positive definite H given by its lower triangle (row-major p×p). */
function choleskySolve(h: Float64Array, g: Float64Array, p: number): Float64Array {
  const l = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let s = h[i * p + j]!;
      for (let k = 0; k < j; k++) s -= l[i * p + k]! * l[j * p + k]!;
      if (i === j) {
        if (!(s > 0)) throw new Error(`logistic fit: the Hessian is not positive definite at column ${i}`);
        l[i * p + i] = Math.sqrt(s);
      } else l[i * p + j] = s / l[j * p + j]!;
    }
  }
  const y = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let s = g[i]!;
    for (let k = 0; k < i; k++) s -= l[i * p + k]! * y[k]!;
    y[i] = s / l[i * p + i]!;
  }
  const out = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < p; k++) s -= l[k * p + i]! * out[k]!;
    out[i] = s / l[i * p + i]!;
  }
  return out;
}

/** The probability for one raw row under a fitted model. */
export function probabilityOf(row: Float64Array, m: Fitted): number {
  let z = m.bias;
  for (let j = 0; j < m.weights.length; j++) z += (m.weights[j]! * (row[j]! - m.means[j]!)) / m.scales[j]!;
  return 1 / (1 + Math.exp(-z));
}
