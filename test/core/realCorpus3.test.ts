/**
 * The analyzer against the third development corpus (../shared/corpus-real3: real outputs of
 * sources disjoint from the first two, many short healthy answers, CJK, code-heavy and data
 * answers; read by path, never copied into the repo). It came after the rules were set: at
 * 4256a20, before any change for it, the analyzer caught 74 of 90 collapses and failed 5 of 174
 * healthy texts (docs/detection.md). The gate holds what the analyzer reaches now, so a
 * regression fails it (the misses and false fails are printed). Then the three corpora together,
 * issue 36's gate: recall at least 0.97, no healthy text failed, at most 5% warned. Absent
 * corpus: skipped, except under CI.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { developmentCorpusDirs, loadRealCorpus, realCorpus3Dir } from '../corpus/realCorpus.js';

/** What the analyzer reaches on corpus-real3 (measured; raise them as it gets better, never lower them). */
const CAUGHT_MIN = 86;
const FALSE_FAILS_MAX = 0;
const WARNS_MAX = 0;
/** Issue 36's targets for the three corpora together. */
const ALL_RECALL_MIN = 0.97;
const ALL_WARN_SHARE_MAX = 0.05;

const dir = realCorpus3Dir();
const corpus = loadRealCorpus(dir);

describe('real corpus 3 (corpus-real3)', () => {
  if (!corpus) {
    const absent = `corpus-real3 not found at ${dir} (set COHERENCY_REAL_CORPUS3 to the folder)`;
    if (process.env['CI']) it('is present under CI', () => assert.fail(absent));
    else it('is skipped', { skip: absent }, () => {});
    return;
  }
  const scored = corpus.map((sample) => {
    const a = analyzeText(sample.text);
    return { sample, verdict: a.verdict, reason: a.reasons[0] ?? '' };
  });
  const degenerate = scored.filter((s) => s.sample.label === 'degenerate');
  const ok = scored.filter((s) => s.sample.label === 'ok');
  const misses = degenerate.filter((s) => s.verdict !== 'fail');
  const falseFails = ok.filter((s) => s.verdict === 'fail');
  const warns = ok.filter((s) => s.verdict === 'warn');
  const line = (s: (typeof scored)[number]) =>
    `${s.sample.name} (${s.sample.kind}, ${s.sample.text.length} chars): ${s.verdict}${s.reason ? ` ${s.reason.slice(0, 140)}` : ''}`;
  console.log(
    `# corpus-real3: caught ${degenerate.length - misses.length}/${degenerate.length} | false fail ${falseFails.length}/${ok.length} | warn on ok ${warns.length}/${ok.length}`,
  );
  for (const s of [...falseFails, ...misses]) console.log(`#   ${line(s)}`);

  it('has both labels', () => {
    assert.ok(degenerate.length > 0 && ok.length > 0);
  });
  it(`catches at least ${CAUGHT_MIN} collapses`, () => {
    assert.ok(
      degenerate.length - misses.length >= CAUGHT_MIN,
      `caught ${degenerate.length - misses.length}; missed:\n${misses.map(line).join('\n')}`,
    );
  });
  it(`fails at most ${FALSE_FAILS_MAX} healthy texts`, () => {
    assert.ok(falseFails.length <= FALSE_FAILS_MAX, `failed ok texts:\n${falseFails.map(line).join('\n')}`);
  });
  it(`warns at most ${WARNS_MAX} healthy texts`, () => {
    assert.ok(warns.length <= WARNS_MAX, `warned ok texts:\n${warns.map(line).join('\n')}`);
  });
});

describe('the three real corpora together (corpus-real, corpus-real2, corpus-real3)', () => {
  const sets = developmentCorpusDirs().map((d) => ({ d, samples: loadRealCorpus(d) }));
  const absent = sets.filter((s) => !s.samples).map((s) => s.d);
  if (absent.length > 0) {
    const why = `real corpora not found at ${absent.join(', ')}`;
    if (process.env['CI']) it('are present under CI', () => assert.fail(why));
    else it('are skipped', { skip: why }, () => {});
    return;
  }
  const scored = sets.flatMap(({ d, samples }) =>
    (samples ?? []).map((sample) => ({
      name: `${d.split('/').pop()}/${sample.name}`,
      label: sample.label,
      verdict: analyzeText(sample.text).verdict,
    })),
  );
  const degenerate = scored.filter((s) => s.label === 'degenerate');
  const ok = scored.filter((s) => s.label === 'ok');
  const misses = degenerate.filter((s) => s.verdict !== 'fail').map((s) => s.name);
  const falseFails = ok.filter((s) => s.verdict === 'fail').map((s) => s.name);
  const warns = ok.filter((s) => s.verdict === 'warn').map((s) => s.name);
  const recall = (degenerate.length - misses.length) / Math.max(1, degenerate.length);
  console.log(
    `# three real corpora: caught ${degenerate.length - misses.length}/${degenerate.length} (${recall.toFixed(3)}) | false fail ${falseFails.length}/${ok.length} | warn on ok ${warns.length}/${ok.length}`,
  );
  it(`recall is at least ${ALL_RECALL_MIN}`, () => {
    assert.ok(recall >= ALL_RECALL_MIN, `recall ${recall.toFixed(3)}; missed: ${misses.join(', ')}`);
  });
  it('fails no healthy text', () => {
    assert.deepEqual(falseFails, []);
  });
  it(`warns at most ${ALL_WARN_SHARE_MAX * 100}% of the healthy texts`, () => {
    assert.ok(warns.length <= ALL_WARN_SHARE_MAX * ok.length, `warned: ${warns.join(', ')}`);
  });
});
