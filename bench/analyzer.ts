/**
 * Analyzer throughput: analyzeText at 10 KB, 100 KB, 1 MB and 10 MB, the 10 MB / 1 MB
 * time ratio (linear cost gives ~10), and the stream analyzer fed ~4-char deltas with a
 * snapshot every 100 deltas (the daemon's early-abort pattern).
 */
import { analyzeText } from '../src/core/analyzeText.js';
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
  const sizes: Array<[string, number]> = [['10 KB', 10_000], ['100 KB', 100_000], ['1 MB', 1_000_000], ['10 MB', 10_000_000]];
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

  // The same at 1 MB on the corpus's healthy texts (prose, code, HTML, data) one after another.
  const corpus = readTexts('healthy').map((t) => t.text).join('\n\n');
  const mixed = corpus.repeat(Math.ceil(1_000_000 / corpus.length)).slice(0, 1_000_000);
  const tm = time(() => analyzeText(mixed), 300);
  console.log(`  1 MB of corpus texts: ${tm.toFixed(2)} ms  ${(1 / (tm / 1000)).toFixed(1)} MB/s`);

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
  console.log('stream analyzer, 1 MB in 4-char deltas, snapshot every 100 deltas');
  console.log(`  ${st.toFixed(1)} ms  ${(1 / (st / 1000)).toFixed(1)} MB/s  (${deltas.length} deltas, ${Math.floor(deltas.length / 100)} snapshots)`);
  const s2 = time(() => {
    const s = createStreamAnalyzer();
    for (const d of deltas) s.push(d);
    s.snapshot();
  }, 1);
  console.log(`  push only: ${s2.toFixed(1)} ms  ${(1 / (s2 / 1000)).toFixed(1)} MB/s`);
}
