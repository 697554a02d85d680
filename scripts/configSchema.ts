// Writes config/coherency.schema.json from the config declaration (npm run schema, also run
// by npm run docs); test/config/configSchema.test.ts fails when the file differs from this output.
import { writeFileSync } from 'node:fs';
import { configSchemaText } from '../src/config/configSchema.js';

const out = new URL('../config/coherency.schema.json', import.meta.url);
writeFileSync(out, configSchemaText());
console.log(`wrote ${out.pathname}`);
