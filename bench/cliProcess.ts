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
 * Each figure is the median of 7 runs (best in brackets), taken in turns so both sides see the
 * same machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../src/simulator/index.js';
import { repoRoot } from '../test/helpers/repoRoot.js';

const RUNS = 7;

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

function timeOnce(cmd: string, args: string[]): number {
  const t0 = performance.now();
  try {
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  } catch {
    // analyze exits 1 on a fail verdict; the pipeline's verdict is printed: the time still counts
  }
  return performance.now() - t0;
}

/** Median and best of RUNS of each command, run in turns. */
function sideBySide(commands: Array<[string, string[]]>): Array<{ median: number; best: number }> {
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++)
    commands.forEach(([cmd, args], k) => {
      times[k]!.push(timeOnce(cmd, args));
    });
  return times.map((t) => {
    const sorted = [...t].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)]!, best: sorted[0]! };
  });
}

const fmt = (t: { median: number; best: number }) => `${t.median.toFixed(0)} ms (${t.best.toFixed(0)})`;

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
    const [node, help] = sideBySide([
      [process.execPath, ['-e', '0']],
      [process.execPath, [cli, '--help']],
    ]);
    console.log(
      `--help: ${fmt(help!)} against bare node -e 0 ${fmt(node!)}: +${(help!.median - node!.median).toFixed(0)} ms (target: within 60 ms)`,
    );
    const pipeline = join(dir, 'seed.sh');
    writeFileSync(pipeline, SEED_PIPELINE);
    for (const [label, model] of [
      ['healthy', 'healthy'],
      ['collapses at token 5000', 'collapse-sentence@5000'],
    ] as const) {
      const file = join(dir, `${model.replace(/[^a-z0-9]/g, '-')}.sse`);
      writeFileSync(file, await capture(model, 10_000));
      const verdict = execFileSync('sh', [pipeline, file], { encoding: 'utf8' }).trim();
      const [ours, shell] = sideBySide([
        [process.execPath, [cli, 'analyze', file]],
        ['sh', [pipeline, file]],
      ]);
      console.log(
        `analyze a 10k-token capture, ${label} (${(statSync(file).size / 1e6).toFixed(1)} MB of SSE): analyze ${fmt(ours!)}, ` +
          `grep|sed|jq|gzip|tr|uniq|sort|awk pipeline ${fmt(shell!)} (its verdict: ${verdict}); ratio ${(ours!.median / shell!.median).toFixed(2)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
