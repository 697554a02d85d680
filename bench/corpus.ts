/**
 * Side-by-side corpus bench: this project's analyzer against the repetition rules others ship,
 * on the same texts — the two real development corpora (../shared/corpus-real and corpus-real2, real
 * model outputs read by path, when present) and the synthetic labelled corpus of test/corpus.
 *
 * Peers (bench/peers/, each written from its public description):
 * - vLLM's optional repetition stop, three publicly proposed settings, as it runs in a stream
 *   (the first token after which the tail is k copies of an L-token block) and, for comparison,
 *   on the finished text's tail only;
 * - the Gopher repetition rules (Table A1) as datatrove's GopherRepetitionFilter applies them;
 * - the seed heuristics (gzip ratio + longest run of one word) this project replaced.
 *
 * Recall = fail on degenerate texts; false fail / warn = fail / warn on healthy ('ok') texts.
 */
import { basename } from 'node:path';
import { analyzeText } from '../src/core/analyzeText.js';
import { freshCorpus, holdoutCorpus, tuningCorpus } from '../test/corpus/generate.js';
import { loadRealCorpus, realCorpusDirs } from '../test/corpus/realCorpus.js';
import { gopherRepetition } from './peers/gopherRepetition.js';
import { seedHeuristics } from './peers/seedHeuristics.js';
import { type PeerResult, type TokenMode, type Tokens, tokenize, vllmRepetition, VLLM_SETTINGS } from './peers/vllmRepetition.js';

interface Text {
  name: string;
  degenerate: boolean;
  kind: string;
  text: string;
}

interface Rule {
  name: string;
  short: string;
  judge(text: string, tokens: (mode: TokenMode) => Tokens): PeerResult;
}

const RULES: Rule[] = [
  {
    name: 'coherency-exporter (analyzeText)',
    short: 'project',
    judge: (text) => {
      const a = analyzeText(text);
      return { verdict: a.verdict, reason: a.reasons[0] ?? '' };
    },
  },
  ...VLLM_SETTINGS.map(
    (s): Rule => ({
      name: `vLLM repetition stop L${s.minL}-${s.maxL} x${s.copies} (stream)`,
      short: `vllm${s.maxL}`,
      judge: (text, tokens) => vllmRepetition(text, s, { tokens: tokens('plain') }),
    }),
  ),
  ...VLLM_SETTINGS.map(
    (s): Rule => ({
      name: `vLLM repetition stop L${s.minL}-${s.maxL} x${s.copies} (final tail)`,
      short: `tail${s.maxL}`,
      judge: (text, tokens) => vllmRepetition(text, s, { tokens: tokens('plain'), stream: false }),
    }),
  ),
  ...VLLM_SETTINGS.map(
    (s): Rule => ({
      name: `vLLM repetition stop L${s.minL}-${s.maxL} x${s.copies} (stream, merged tokens)`,
      short: `merg${s.maxL}`,
      judge: (text, tokens) => vllmRepetition(text, s, { tokens: tokens('merged') }),
    }),
  ),
  { name: 'Gopher repetition (datatrove)', short: 'gopher', judge: (text, tokens) => gopherRepetition(text, tokens('plain')) },
  { name: 'seed heuristics (gzip + word run)', short: 'seed', judge: (text) => seedHeuristics(text) },
];

interface Judged {
  t: Text;
  results: PeerResult[];
}

function judgeAll(texts: Text[], ms: number[]): Judged[] {
  return texts.map((t) => {
    const tokens = new Map<TokenMode, Tokens>();
    let tokenMs = 0;
    const lazy = (mode: TokenMode): Tokens => {
      let tk = tokens.get(mode);
      if (!tk) {
        const t0 = performance.now();
        tk = tokenize(t.text, mode);
        tokens.set(mode, tk);
        tokenMs = performance.now() - t0;
      }
      return tk;
    };
    const results = RULES.map((rule, i) => {
      const t0 = performance.now();
      const r = rule.judge(t.text, lazy);
      ms[i] = (ms[i] ?? 0) + performance.now() - t0 - tokenMs;
      tokenMs = 0;
      return r;
    });
    return { t, results };
  });
}

interface Score {
  degenerate: number;
  healthy: number;
  caught: number;
  falseFail: number;
  warn: number;
}

function score(judged: Judged[], rule: number): Score {
  const s: Score = { degenerate: 0, healthy: 0, caught: 0, falseFail: 0, warn: 0 };
  for (const { t, results } of judged) {
    const v = results[rule]!.verdict;
    if (t.degenerate) {
      s.degenerate++;
      if (v === 'fail') s.caught++;
    } else {
      s.healthy++;
      if (v === 'fail') s.falseFail++;
      if (v === 'warn') s.warn++;
    }
  }
  return s;
}

const pct = (x: number, n: number): string => (n === 0 ? '-' : `${((100 * x) / n).toFixed(1)}%`);
const cell = (x: number, n: number): string => (n === 0 ? '-' : `${pct(x, n)} (${x})`);

export async function runCorpusBench(): Promise<void> {
  // both development corpora, as npm test gates them: corpus-real and corpus-real2
  const dirs = realCorpusDirs();
  const loaded = dirs.map((d) => ({ dir: d, samples: loadRealCorpus(d) }));
  const missing = loaded.filter((l) => !l.samples).map((l) => l.dir);
  const real =
    missing.length === 0 ? loaded.flatMap((l) => (l.samples ?? []).map((s) => ({ ...s, name: `${basename(l.dir)}/${s.name}` }))) : null;
  const dir = missing.join(' and ');
  const realTexts: Text[] = (real ?? []).map((s) => ({ name: s.name, degenerate: s.label === 'degenerate', kind: s.kind, text: s.text }));
  const synthTexts: Text[] = [...tuningCorpus(), ...holdoutCorpus(), ...freshCorpus()].map((s) => ({
    name: s.name,
    degenerate: s.label === 'degenerate',
    kind: s.kind,
    text: s.text,
  }));
  if (!real) console.log(`real corpus not found at ${dir} (set COHERENCY_REAL_CORPUS / COHERENCY_REAL_CORPUS2): real columns left empty`);

  const ms: number[] = [];
  const realJudged = judgeAll(realTexts, ms);
  const synthJudged = judgeAll(synthTexts, ms);

  const r0 = score(realJudged, 0);
  const s0 = score(synthJudged, 0);
  console.log(
    `real corpora (corpus-real + corpus-real2): ${r0.degenerate} degenerate, ${r0.healthy} ok | synthetic (test/corpus tuning+holdout+fresh): ${s0.degenerate} degenerate, ${s0.healthy} healthy`,
  );
  const header = ['rule', 'real recall', 'real false fail', 'real warn', 'synth recall', 'synth false fail', 'synth warn', 'ms'];
  const rows = RULES.map((rule, i) => {
    const r = score(realJudged, i);
    const s = score(synthJudged, i);
    return [
      rule.name,
      cell(r.caught, r.degenerate),
      cell(r.falseFail, r.healthy),
      cell(r.warn, r.healthy),
      cell(s.caught, s.degenerate),
      cell(s.falseFail, s.healthy),
      cell(s.warn, s.healthy),
      (ms[i] ?? 0).toFixed(0),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const fmt = (row: string[]): string => '  ' + row.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join(' | ');
  console.log(fmt(header));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(fmt(row));
  console.log(
    '  vLLM "stream": stopped at the first token where the tail matched, as the per-token check does; "final tail": the finished text only.',
  );
  console.log(
    '  Tokens: \\w+ runs or single other characters, whitespace dropped, as briefed; "merged tokens", closer to a BPE tokenizer: a run of one',
  );
  console.log(
    '  punctuation character (..., ---, ```) is one token, letter/digit runs are cut every 16 chars, newlines and whitespace runs are tokens.',
  );
  console.log('  ms: time of the rule over both corpora (tokenizing not included).');

  // The project's own errors on the synthetic corpus (its gate is test/core/corpus.test.ts).
  const sMiss = synthJudged.filter((j) => j.t.degenerate && j.results[0]!.verdict !== 'fail');
  const sAlarm = synthJudged.filter((j) => !j.t.degenerate && j.results[0]!.verdict !== 'ok');
  const short = (j: Judged): string => `    ${j.t.name.slice(0, 70)}: ${j.results[0]!.verdict} ${j.results[0]!.reason.slice(0, 110)}`;
  console.log(
    `\nproject on the synthetic corpus: ${sMiss.length} misses, ${sAlarm.length} false alarms on healthy${sMiss.length + sAlarm.length ? ' (first 5 of each):' : ''}`,
  );
  for (const j of [...sMiss.slice(0, 5), ...sAlarm.slice(0, 5)]) console.log(short(j));

  if (!real) return;

  // Per-kind recall on the real corpora: the project and every peer.
  const kinds = [...new Set(realTexts.filter((t) => t.degenerate).map((t) => t.kind))].sort();
  const shorts = RULES.map((r) => r.short);
  const kw = Math.max(4, ...kinds.map((k) => k.length));
  const cw = shorts.map((s) => Math.max(s.length, 5));
  console.log('\nreal corpora recall per kind:');
  for (const r of RULES) console.log(`  ${r.short.padEnd(8)} = ${r.name}`);
  console.log(`  ${'kind'.padEnd(kw)}  n  ${shorts.map((s, i) => s.padStart(cw[i]!)).join(' ')}`);
  for (const kind of kinds) {
    const of = realJudged.filter((j) => j.t.degenerate && j.t.kind === kind);
    const cols = RULES.map((_, i) => `${of.filter((j) => j.results[i]!.verdict === 'fail').length}/${of.length}`.padStart(cw[i]!));
    console.log(`  ${kind.padEnd(kw)} ${String(of.length).padStart(2)}  ${cols.join(' ')}`);
  }

  const line = (j: Judged, i: number): string => {
    const r = j.results[i]!;
    return `    ${j.t.name} (${j.t.kind}, ${j.t.text.length} chars): ${r.verdict}${r.reason ? ` — ${r.reason.slice(0, 150)}` : ''}`;
  };
  const misses = realJudged.filter((j) => j.t.degenerate && j.results[0]!.verdict !== 'fail');
  console.log(`\nproject misses on the real corpora (${misses.length}):`);
  for (const j of misses) console.log(line(j, 0));
  const alarms = realJudged.filter((j) => !j.t.degenerate && j.results[0]!.verdict !== 'ok');
  console.log(`project false alarms on the real corpora's ok texts (${alarms.length}):`);
  for (const j of alarms) console.log(line(j, 0));

  // What each peer catches that the project misses, and its false fails on the ok texts.
  console.log('\npeers against the project on the real corpora:');
  for (let i = 1; i < RULES.length; i++) {
    const extra = misses.filter((j) => j.results[i]!.verdict === 'fail').map((j) => j.t.name.replace(/\.txt$/, ''));
    const ff = realJudged.filter((j) => !j.t.degenerate && j.results[i]!.verdict === 'fail');
    const names = ff.map((j) => `${j.t.name.replace(/\.txt$/, '')} ${j.t.kind}`);
    const shown = names.length > 10 ? `${names.slice(0, 10).join(', ')}, … ${names.length - 10} more` : names.join(', ');
    console.log(
      `  ${RULES[i]!.short}: catches ${extra.length} of the project's ${misses.length} misses${extra.length ? ` (${extra.join(' ')})` : ''}; false fails on ok ${ff.length}${ff.length ? `: ${shown}; e.g. ${ff[0]!.t.name}: ${ff[0]!.results[i]!.reason.slice(0, 110)}` : ''}`,
    );
  }
}
