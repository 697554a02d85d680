#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm ci` (the `prepare` script).
// Signals that arrive while the CLI loads are recorded, not acted on: a SIGHUP from a
// config-reloader sidecar would otherwise kill the process (its default action). The CLI
// applies them once it can (serve: after start-up), or hands them back to node's defaults.
const early = { signals: [], handler: (signal) => early.signals.push(signal) };
for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT']) process.on(signal, early.handler);

const { existsSync } = await import('node:fs');
const entry = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('coherency-exporter: dist/ is missing; run `npm ci` or `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2), undefined, early);
if (code !== 'running') process.exitCode = code;
