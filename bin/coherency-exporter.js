#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm ci` (the `prepare` script).
// Signals that arrive while the CLI loads are recorded, not acted on: a SIGHUP from a
// config-reloader sidecar would otherwise kill the process (its default action). The CLI
// applies them once it can (serve: after start-up), or hands them back to node's defaults.
const early = { signals: [], handler: (signal) => early.signals.push(signal) };
for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT']) process.on(signal, early.handler);

const { statSync } = await import('node:fs');
// dist/cli is the bundle of dist/src (npm run build): a few files to load instead of ~40. One
// older than the compiled modules (tsc run alone) is stale, and the modules are used instead.
const modules = new URL('../dist/src/cli.js', import.meta.url);
const bundled = new URL('../dist/cli/cli.js', import.meta.url);
const mtime = (url) => statSync(url, { throwIfNoEntry: false })?.mtimeMs ?? -1;
const entry = mtime(bundled) >= mtime(modules) ? bundled : modules;
if (mtime(entry) < 0) {
  process.stderr.write('coherency-exporter: dist/ is missing; run `npm ci` or `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2), undefined, early);
if (code !== 'running') process.exitCode = code;
