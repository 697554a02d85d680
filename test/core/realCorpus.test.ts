/**
 * The analyzer against the two real development corpora together (../shared/corpus-real and
 * ../shared/corpus-real2: real model outputs from evaluation repositories and GitHub issues,
 * labelled degenerate / ok; read by path, never copied into the repo). The issue's targets are
 * recall >= 97%, false fail <= 1%, warn on ok <= 5%; the gate holds what the detector reaches
 * (143 of 146, 97.9%, measured; docs/detection.md), so that it fails on a regression. When a corpus is
 * absent the gate is skipped with a message, except under CI (process.env.CI set), where its
 * absence is a failure.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { loadRealCorpus, realCorpusDirs, type RealSample } from '../corpus/realCorpus.js';

const RECALL_MIN = 0.97;
const FALSE_FAIL_MAX = 0.01;
const WARN_MAX = 0.05;

interface Scored {
  sample: RealSample;
  verdict: string;
  reason: string;
}

const dirs = realCorpusDirs();
const loaded = dirs.map((dir) => ({ dir, samples: loadRealCorpus(dir) }));
const missing = loaded.filter((l) => !l.samples).map((l) => l.dir);
const absent = `real corpus not found at ${missing.join(' and ')} (set COHERENCY_REAL_CORPUS / COHERENCY_REAL_CORPUS2 to the folders)`;
const corpus =
  missing.length === 0
    ? loaded.flatMap((l) => (l.samples ?? []).map((s) => ({ ...s, name: `${l.dir.split('/').pop()}/${s.name}` })))
    : null;

describe('real corpora (corpus-real and corpus-real2)', () => {
  if (!corpus) {
    if (process.env['CI']) {
      it('are present under CI', () => assert.fail(`${absent}; CI must provide ../shared/corpus-real and ../shared/corpus-real2`));
    } else {
      it('are skipped', { skip: absent }, () => {});
    }
    return;
  }

  const scored: Scored[] = corpus.map((sample) => {
    const a = analyzeText(sample.text);
    return { sample, verdict: a.verdict, reason: a.reasons[0] ?? '' };
  });
  const degenerate = scored.filter((s) => s.sample.label === 'degenerate');
  const ok = scored.filter((s) => s.sample.label === 'ok');
  const misses = degenerate.filter((s) => s.verdict !== 'fail');
  const falseFails = ok.filter((s) => s.verdict === 'fail');
  const warns = ok.filter((s) => s.verdict === 'warn');
  const recall = (degenerate.length - misses.length) / Math.max(1, degenerate.length);
  const falseFail = falseFails.length / Math.max(1, ok.length);
  const warn = warns.length / Math.max(1, ok.length);
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const line = (s: Scored): string =>
    `${s.sample.name} (${s.sample.kind}, ${s.sample.text.length} chars): ${s.verdict}${s.reason ? ` ${s.reason.slice(0, 160)}` : ''}`;

  console.log(
    `# corpus-real + corpus-real2: ${degenerate.length} degenerate, ${ok.length} ok | recall ${pct(recall)} (${degenerate.length - misses.length}/${degenerate.length}) | false fail ${pct(falseFail)} (${falseFails.length}/${ok.length}) | warn on ok ${pct(warn)} (${warns.length}/${ok.length})`,
  );
  const kinds = new Map<string, { n: number; caught: number }>();
  for (const s of degenerate) {
    const k = kinds.get(s.sample.kind) ?? { n: 0, caught: 0 };
    kinds.set(s.sample.kind, k);
    k.n++;
    if (s.verdict === 'fail') k.caught++;
  }
  console.log(
    `# recall per kind: ${[...kinds]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([k, v]) => `${k} ${v.caught}/${v.n}`)
      .join(', ')}`,
  );

  it('has both labels', () => {
    assert.ok(degenerate.length > 0, 'no degenerate text');
    assert.ok(ok.length > 0, 'no ok text');
  });
  it(`recall (fail on degenerate) >= ${RECALL_MIN * 100}%`, () => {
    assert.ok(recall >= RECALL_MIN, `recall ${pct(recall)}; missed ${misses.length}:\n${misses.map(line).join('\n')}`);
  });
  it(`false fail on ok <= ${FALSE_FAIL_MAX * 100}%`, () => {
    assert.ok(
      falseFail <= FALSE_FAIL_MAX,
      `false fail ${pct(falseFail)}; failed ok texts ${falseFails.length}:\n${falseFails.map(line).join('\n')}`,
    );
  });
  it(`warn on ok <= ${WARN_MAX * 100}%`, () => {
    assert.ok(warn <= WARN_MAX, `warn ${pct(warn)}; warned ok texts ${warns.length}:\n${warns.map(line).join('\n')}`);
  });
});
