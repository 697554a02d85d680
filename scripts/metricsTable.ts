// Writes docs/metrics.md from the metric definitions themselves (npm run docs), so the
// reference cannot drift; test/docs.test.ts fails when the file differs from this output.
import { writeFileSync } from 'node:fs';
import { metricsReference } from '../src/metrics/metricsReference.js';

const out = new URL('../docs/metrics.md', import.meta.url);
writeFileSync(out, metricsReference());
console.log(`wrote ${out.pathname}`);
