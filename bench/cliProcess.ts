/**
 * The command line as a user feels it, whole processes with start-up (issue 12, item 5):
 *
 * - `coherency-exporter --help` beside bare `node -e 0`;
 * - `coherency-exporter analyze capture.sse` on a captured 10k-token stream (the simulator's
 *   OpenAI-format SSE, recorded as received) beside the shell pipeline this project replaces,
 *   run on the same file: grep the data lines | sed off the prefix | jq the content deltas, then
 *   gzip | wc for the compression ratio, tr | uniq -c | sort for the longest word run, and awk
 *   for the verdict. Both a healthy stream and one that collapses part-way.
 *
 * Each figure is the median of 11 runs (best in brackets), taken in turns so both sides see the
 * same machine.
 *
 * Node.js 20 reads and parses the file NODE_EXTRA_CA_CERTS names when it starts, whether or not
 * the process ever opens a TLS connection (about 80 ms on the development machine, whose
 * environment sets it): the node rows are run both with the environment as it is and without
 * that variable. A third node row, the floor, is a script that only pulls the content out of
 * the capture (split lines, JSON.parse each data line, join the deltas) and analyses nothing:
 * the least any Node.js process reading the capture can take.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../src/simulator/index.js';
import { repoRoot } from '../test/helpers/repoRoot.js';

const RUNS = 11;

const SEED_PIPELINE = `
set -e
T=$(mktemp)
grep '^data: {' "$1" | sed 's/^data: //' | jq -j '.choices[0].delta.content // empty' > "$T"
bytes=$(wc -c < "$T")
gz=$(gzip -6 -c "$T" | wc -c)
run=$(tr -cs '[:alnum:]' '\\n' < "$T" | uniq -c | sort -rn | head -1 | awk '{print $1}')
rm -f "$T"
awk -v g="$gz" -v b="$bytes" -v r="$run" 'BEGIN { v = "OK"; if (g / b < 0.15 || r >= 6) v = "WARN"; if (g / b < 0.10 || r >= 12) v = "FAIL"; print v }'
`;

const FLOOR_SCRIPT = `
import { readFileSync } from 'node:fs';
let text = '';
for (const line of readFileSync(process.argv[2], 'utf8').split('\\n')) {
  if (!line.startsWith('data: {')) continue;
  const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
  if (typeof delta === 'string') text += delta;
}
console.log(text.length);
`;

/** The environment without NODE_EXTRA_CA_CERTS (node 20 reads that file at every start). */
const WITHOUT_CA = (() => {
  const env = { ...process.env };
  delete env['NODE_EXTRA_CA_CERTS'];
  return env;
})();

type Command = [cmd: string, args: string[], env?: NodeJS.ProcessEnv];

function timeOnce([cmd, args, env]: Command): number {
  const t0 = performance.now();
  try {
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'], env: env ?? process.env });
  } catch {
    // analyze exits 1 on a fail verdict; the pipeline's verdict is printed: the time still counts
  }
  return performance.now() - t0;
}

type Timing = { median: number; best: number };

/** Median and best of RUNS of each command, run in turns. */
function sideBySide(commands: Command[]): Timing[] {
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++)
    commands.forEach((command, k) => {
      times[k]!.push(timeOnce(command));
    });
  return times.map((t) => {
    const sorted = [...t].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)]!, best: sorted[0]! };
  });
}

const fmt = (t: Timing) => `${t.median.toFixed(0)} ms (${t.best.toFixed(0)})`;

async function capture(model: string, maxTokens: number): Promise<string> {
  const sim = await startSimulator({ tokensPerSecond: 0 });
  try {
    const res = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        stream: true,
        max_tokens: maxTokens,
        messages: [{ role: 'user', content: 'Write a long technical article.' }],
      }),
    });
    return await res.text();
  } finally {
    await sim.close();
  }
}

export async function runCliProcessBench(): Promise<void> {
  const cli = join(repoRoot(), 'bin', 'coherency-exporter.js');
  const dir = mkdtempSync(join(tmpdir(), 'coherency-bench-cli-'));
  try {
    const hasCa = process.env['NODE_EXTRA_CA_CERTS'] !== undefined;
    const [node, help, nodeBare, helpBare] = sideBySide([
      [process.execPath, ['-e', '0']],
      [process.execPath, [cli, '--help']],
      [process.execPath, ['-e', '0'], WITHOUT_CA],
      [process.execPath, [cli, '--help'], WITHOUT_CA],
    ]);
    const helpLine = (h: Timing, n: Timing) => `${fmt(h)} against bare node -e 0 ${fmt(n)}: +${(h.median - n.median).toFixed(0)} ms`;
    console.log(`--help: ${helpLine(help!, node!)} (target: within 60 ms)`);
    if (hasCa) console.log(`--help without NODE_EXTRA_CA_CERTS: ${helpLine(helpBare!, nodeBare!)}`);
    const pipeline = join(dir, 'seed.sh');
    writeFileSync(pipeline, SEED_PIPELINE);
    const floor = join(dir, 'floor.mjs');
    writeFileSync(floor, FLOOR_SCRIPT);
    for (const [label, model] of [
      ['healthy', 'healthy'],
      ['collapses at token 5000', 'collapse-sentence@5000'],
    ] as const) {
      const file = join(dir, `${model.replace(/[^a-z0-9]/g, '-')}.sse`);
      writeFileSync(file, await capture(model, 10_000));
      const verdict = execFileSync('sh', [pipeline, file], { encoding: 'utf8' }).trim();
      const [shell, ours, floorT, oursBare, floorBare] = sideBySide([
        ['sh', [pipeline, file]],
        [process.execPath, [cli, 'analyze', file]],
        [process.execPath, [floor, file]],
        [process.execPath, [cli, 'analyze', file], WITHOUT_CA],
        [process.execPath, [floor, file], WITHOUT_CA],
      ]);
      const ratio = (t: Timing) => (t.median / shell!.median).toFixed(2);
      console.log(
        `analyze a 10k-token capture, ${label} (${(statSync(file).size / 1e6).toFixed(1)} MB of SSE): ` +
          `grep|sed|jq|gzip|tr|uniq|sort|awk pipeline ${fmt(shell!)} (its verdict: ${verdict}); ` +
          `analyze ${fmt(ours!)}, ratio ${ratio(ours!)}; floor (node, content only) ${fmt(floorT!)}, ratio ${ratio(floorT!)}`,
      );
      if (hasCa)
        console.log(
          `  the same without NODE_EXTRA_CA_CERTS: analyze ${fmt(oursBare!)}, ratio ${ratio(oursBare!)}; floor ${fmt(floorBare!)}, ratio ${ratio(floorBare!)}`,
        );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
