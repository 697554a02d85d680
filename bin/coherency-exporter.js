#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm ci` (the `prepare` script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('coherency-exporter: dist/ is missing; run `npm ci` or `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
if (code !== 'running') process.exitCode = code;
