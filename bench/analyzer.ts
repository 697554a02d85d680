/**
 * Analyzer throughput: analyzeText at 10 KB, 100 KB, 1 MB and 10 MB, the 10 MB / 1 MB
 * time ratio (linear cost gives ~10), the same on mixed prose, code and HTML (the corpus's
 * healthy texts one after another), measured in process and from outside as a whole
 * `coherency-exporter analyze` process beside the seed shell pipeline it replaces, and the
 * stream analyzer fed ~4-char deltas with a snapshot every 100 deltas (the daemon's
 * early-abort pattern).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeText } from '../src/core/analyzeText.js';
import { repoRoot } from '../test/helpers/repoRoot.js';
import { createStreamAnalyzer } from '../src/core/streamAnalyzer.js';
import { readTexts } from '../test/corpus/paths.js';
import { createRng as rng } from '../src/simulator/random.js';

const VOCAB = (
  'the of and to in is that for it as with was on be by this are or from at an which have not has but can its more one ' +
  'system request server latency cache memory thread process queue buffer stream token model output error value ' +
  'network packet leader follower election timeout commit index term vote cluster storage disk flush batch retry ' +
  'measure result signal window sample metric alert probe target schedule config reload backoff budget'
).split(' ');

/** Prose-like text of n chars: sentences of random words, paragraphs, a code block now and then. */
export function benchText(n: number, seed = 1): string {
  const rand = rng(seed);
  const parts: string[] = [];
  let len = 0;
  while (len < n) {
    const words: string[] = [];
    const k = 6 + Math.floor(rand() * 18);
    for (let i = 0; i < k; i++) words.push(VOCAB[Math.floor(rand() * VOCAB.length)]!);
    let s = words.join(' ');
    s = s[0]!.toUpperCase() + s.slice(1) + (rand() < 0.1 ? ', ' + Math.floor(rand() * 1000) + ' ms.' : '.');
    s += rand() < 0.15 ? '\n\n' : ' ';
    if (rand() < 0.02) s += '```js\nfor (let i = 0; i < n; i++) {\n  total += values[i] * 2;\n}\n```\n\n';
    parts.push(s);
    len += s.length;
  }
  return parts.join('').slice(0, n);
}

function time(fn: () => void, minMs = 300): number {
  fn(); // warm-up
  let runs = 0;
  const t0 = performance.now();
  let el = 0;
  do {
    fn();
    runs++;
    el = performance.now() - t0;
  } while (el < minMs);
  return el / runs;
}

export async function runAnalyzerBench(): Promise<void> {
  const sizes: Array<[string, number]> = [
    ['10 KB', 10_000],
    ['100 KB', 100_000],
    ['1 MB', 1_000_000],
    ['10 MB', 10_000_000],
  ];
  const ms: Record<string, number> = {};
  console.log('analyzeText throughput (random sentences from a 100-word vocabulary, a loop in the last 10%)');
  for (const [label, n] of sizes) {
    const head = benchText(Math.floor(n * 0.9));
    const text = (head + 'The leader sends heartbeats to every follower. '.repeat(Math.ceil((n * 0.1) / 47))).slice(0, n);
    const t = time(() => analyzeText(text), n >= 10_000_000 ? 1 : 300);
    ms[label] = t;
    console.log(`  ${label.padEnd(7)} ${t.toFixed(2).padStart(9)} ms  ${(n / 1e6 / (t / 1000)).toFixed(1).padStart(7)} MB/s`);
  }
  console.log(`  time ratio 10 MB / 1 MB: ${(ms['10 MB']! / ms['1 MB']!).toFixed(2)} (linear = 10)`);

  // The same on the corpus's healthy texts (prose, code, HTML, data) one after another.
  const mixed1 = mixedText(1_000_000);
  const mixed10 = mixedText(10_000_000);
  const tm = time(() => analyzeText(mixed1), 300);
  const tm10 = time(() => analyzeText(mixed10), 1);
  console.log(`  1 MB of mixed prose, code and HTML:  ${tm.toFixed(2)} ms  ${(1 / (tm / 1000)).toFixed(1)} MB/s`);
  console.log(
    `  10 MB of mixed prose, code and HTML: ${tm10.toFixed(2)} ms  ${(10 / (tm10 / 1000)).toFixed(1)} MB/s  (10 MB / 1 MB: ${(tm10 / tm).toFixed(2)})`,
  );
  fromOutside(mixed1, mixed10);

  const text = benchText(1_000_000, 2);
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += 4) deltas.push(text.slice(i, i + 4));
  const st = time(() => {
    const s = createStreamAnalyzer();
    for (let i = 0; i < deltas.length; i++) {
      s.push(deltas[i]!);
      if (i % 100 === 99) s.snapshot();
    }
    s.snapshot();
  }, 1);
  console.log('stream analyzer, 1 MB in 4-char deltas');
  console.log(
    `  full snapshot every 100 deltas: ${st.toFixed(1)} ms  ${(1 / (st / 1000)).toFixed(1)} MB/s  (${deltas.length} deltas, ${Math.floor(deltas.length / 100)} snapshots)`,
  );
  const sc = time(() => {
    const s = createStreamAnalyzer();
    for (let i = 0; i < deltas.length; i++) {
      s.push(deltas[i]!);
      if (i % 32 === 31) s.certainCollapse();
    }
    s.snapshot();
  }, 1);
  console.log(
    `  abort check every 32 deltas (the daemon's pattern), one snapshot at the end: ${sc.toFixed(1)} ms  ${(1 / (sc / 1000)).toFixed(1)} MB/s`,
  );
  const s2 = time(() => {
    const s = createStreamAnalyzer();
    for (const d of deltas) s.push(d);
    s.snapshot();
  }, 1);
  console.log(`  push only: ${s2.toFixed(1)} ms  ${(1 / (s2 / 1000)).toFixed(1)} MB/s`);
}

function mixedText(n: number): string {
  const corpus = readTexts('healthy')
    .map((t) => t.text)
    .join('\n\n');
  return corpus.repeat(Math.ceil(n / corpus.length)).slice(0, n);
}

/** Best of `runs` wall times of a command, in ms. */
function wall(cmd: string, args: string[], runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    try {
      execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'] });
    } catch {
      // analyze exits 1 on a fail verdict: the time still counts
    }
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * As a user runs it: a whole `coherency-exporter analyze FILE` process (start-up included),
 * beside the seed's shell pipeline on the same file (gzip ratio and the longest word run,
 * the hand-run check this project replaces). Throughput is given net of start-up (an
 * analyze of a one-line file).
 */
function fromOutside(mixed1: string, mixed10: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-bench-'));
  try {
    const cli = join(repoRoot(), 'bin', 'coherency-exporter.js');
    const files: Array<[string, string, number]> = [
      ['tiny', 'Hello there.\n', 0],
      ['1 MB', mixed1, 1],
      ['10 MB', mixed10, 10],
    ];
    const seed = (f: string): string[] => [
      '-c',
      `gzip -6 -c '${f}' | wc -c >/dev/null; tr -cs '[:alnum:]' '\\n' < '${f}' | uniq -c | sort -rn | head -1 >/dev/null`,
    ];
    const startup = { ours: 0, seed: 0 };
    console.log(
      'from outside (whole process, best of 3): coherency-exporter analyze FILE vs the seed shell pipeline (gzip | wc; tr | uniq -c | sort)',
    );
    for (const [label, text, mb] of files) {
      const file = join(dir, `${label.replace(' ', '')}.txt`);
      writeFileSync(file, text);
      const ours = wall(process.execPath, [cli, 'analyze', file]);
      const shell = wall('sh', seed(file));
      if (mb === 0) {
        startup.ours = ours;
        startup.seed = shell;
        console.log(`  start-up (a one-line file): analyze ${ours.toFixed(0)} ms, seed pipeline ${shell.toFixed(0)} ms`);
        continue;
      }
      const net = Math.max(1, ours - startup.ours);
      console.log(
        `  ${label.padEnd(6)} analyze ${ours.toFixed(0).padStart(6)} ms (${(mb / (net / 1000)).toFixed(1)} MB/s net of start-up)  seed pipeline ${shell.toFixed(0).padStart(6)} ms  ratio ${(ours / shell).toFixed(2)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
