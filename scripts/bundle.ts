// Bundles the compiled CLI (dist/src/cli.js) into dist/cli/ for bin/coherency-exporter.js: one
// module per command path instead of ~40 files resolved one by one, which is a third of
// `analyze`'s start-up. Each lazily imported part (the daemon, the probe command, analysis)
// stays a chunk of its own, so `--help` loads none of them. Packages stay external.
// Run by `npm run build` after tsc; the launcher falls back to dist/src when this is older.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { constBindings } from './constBindings.js';

const outdir = new URL('../dist/cli/', import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  // The pretty log transport is loaded by path in pino's worker thread: an entry of its own,
  // beside the chunks, where createLogger's `new URL('./prettyTransport.js', import.meta.url)` finds it.
  entryPoints: [
    new URL('../dist/src/cli.js', import.meta.url).pathname,
    { in: new URL('../dist/src/logging/prettyTransport.js', import.meta.url).pathname, out: 'prettyTransport' },
  ],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

// esbuild declares every top-level binding of a bundle with `var`: the ones never assigned are made
// `const` again, which the engine folds into the code that reads them (constBindings.ts)
for (const name of readdirSync(outdir).filter((f) => f.endsWith('.js'))) {
  const file = join(outdir, name);
  const mapFile = `${file}.map`;
  const r = constBindings(readFileSync(file, 'utf8'), existsSync(mapFile) ? readFileSync(mapFile, 'utf8') : null);
  writeFileSync(file, r.code);
  if (r.map !== null) writeFileSync(mapFile, r.map);
}
