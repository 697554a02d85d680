// npm run test:unit: the fast loop while editing. The test files of pure modules (no servers,
// no child processes, no corpus-wide analyzer runs, no real-time waits), loaded through tsx in
// one process per CPU (up to 4, files dealt out by weight): no tsc build and no node start-up per file,
// which is where most of `npm test`'s time goes on a small machine. No type check: `npm test`
// (tsc, then every file in its own process) is the full run before a commit.
// A new test file joins unless it matches a line of LEFT_OUT. `--list` prints the files.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

/** Left to `npm test`, with the reason. */
const LEFT_OUT: Array<[RegExp, string]> = [
  [/^test\/integration\//, 'starts the CLI as a child process, Prometheus, promtool or a browser'],
  [/^test\/daemon\//, 'starts the daemon and the simulator'],
  [/^test\/simulator\/(collapse|defects|faults|lifecycle|release|streaming)\./, 'starts the simulator'],
  [/^test\/probe\/(conformance|earlyAbort|faults)\./, 'probes a running simulator'],
  [/^test\/probe\/readKeyFile\./, 'runs a child process'],
  [/^test\/client\//, 'talks to a local HTTP server'],
  [/^test\/fingerprint\/fetchIdentity\./, 'talks to a local HTTP server (the redirect test)'],
  [/^test\/http\/(auth|buildApp|conformancePage|guards|pages|runsHistory)\./, 'starts the Fastify app'],
  [/^test\/cli\//, 'runs commands end to end, with temp dirs'],
  [/^test\/config\/loadConfig\./, 'reads and writes temp files'],
  [/^test\/state\/runStore\./, 'writes runs to a temp dir'],
  [/^test\/grafana\/rulesMetrics\./, 'runs promtool'],
  [/^test\/packageEntry\./, 'packs and imports the package in a child process'],
  [/^test\/core\/(certainFail|streamAnalyzer|corpus)\./, 'streams the whole corpus through the analyzer (20-70 s each)'],
  [/^test\/scheduler\/(createScheduler|loadDiscipline)\./, 'waits for real cron ticks and blocks the event loop on purpose'],
];

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Seconds of test time of the heaviest files (measured here), so that the workers get equal
 * shares; any other file counts 0.5. Only the balance depends on these, never what runs.
 */
const WEIGHT: Record<string, number> = {
  'test/core/streamAccumulator.test.ts': 6,
  'test/core/detectors/contract.test.ts': 5,
  'test/core/detectors/cycling.test.ts': 3.5,
  'test/core/detectors/enumeration.test.ts': 2.5,
  'test/core/detectors/garble.test.ts': 2.5,
  'test/metrics/costNote.test.ts': 2.3,
  'test/core/analyzeText.test.ts': 2.3,
  'test/probe/runProbe.test.ts': 1.5,
  'test/config/parseConfig.test.ts': 1,
};

/** Deals the files out heaviest first, each to the worker with the least so far. */
function shares(list: string[], n: number): string[][] {
  const out = Array.from({ length: n }, () => ({ files: [] as string[], load: 0 }));
  const weight = (f: string) => WEIGHT[f] ?? 0.5;
  for (const f of [...list].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const w = out.reduce((min, s) => (s.load < min.load ? s : min));
    w.files.push(f);
    w.load += weight(f);
  }
  return out.map((s) => s.files.sort());
}

const files = testFiles('test')
  .filter((f) => !LEFT_OUT.some(([re]) => re.test(f)))
  .sort();
const shardArg = process.argv.find((a) => a.startsWith('--shard='));
if (process.argv.includes('--list')) {
  for (const f of files) console.log(f);
} else if (shardArg) {
  // A worker: import its share; node:test runs the tests as they register and sets the exit code.
  const [k, n] = shardArg.slice('--shard='.length).split('/').map(Number) as [number, number];
  for (const f of shares(files, n)[k] ?? []) await import(pathToFileURL(join(root, f)).href);
} else {
  const n = Math.max(1, Math.min(availableParallelism(), 4));
  const reporter = process.execArgv.some((a) => a.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
  const codes = await Promise.all(
    Array.from({ length: n }, (_, k) => {
      const child = spawn(process.execPath, [...process.execArgv, ...reporter, fileURLToPath(import.meta.url), `--shard=${k}/${n}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => out.push(b));
      return new Promise<number>((resolve) =>
        child.on('close', (code) => {
          // Each worker's report in one piece, so that the two do not interleave.
          process.stdout.write(Buffer.concat(out));
          resolve(code ?? 1);
        }),
      );
    }),
  );
  const failed = codes.filter((c) => c !== 0).length;
  console.log(`test:unit: ${files.length} files in ${n} processes, ${failed === 0 ? 'all passed' : `${failed} of ${n} workers failed`}`);
  process.exitCode = failed === 0 ? 0 : 1;
}
