/** Significant digits kept of a non-integer number in JSON answers. */
export const JSON_SIGNIFICANT_DIGITS = 6;

/**
 * JSON.stringify replacer: a non-integer number keeps JSON_SIGNIFICANT_DIGITS significant
 * digits. Times measured as differences of performance.now() carry float noise
 * (0.0028309250000002066 s); six digits keep microseconds of a 0.1 s figure and a
 * millisecond of a 100 s one. Integers, strings and the rest pass unchanged.
 */
export function roundNumbers(_key: string, value: unknown): unknown {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(JSON_SIGNIFICANT_DIGITS));
}

/** How the HTTP API writes every JSON answer (fastify's reply serializer). */
export function toJson(payload: unknown): string {
  return JSON.stringify(payload, roundNumbers);
}
