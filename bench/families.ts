/**
 * How the analyzer does on many drawn variants of issue 36's collapse families and of the
 * healthy shapes beside them (test/corpus/families.ts), per family: degenerate variants that
 * fail, healthy ones that stay ok. Two sets: one built from the healthy texts of the real
 * development corpora (the rules were set looking at it), one from test/corpus's holdout and
 * fresh texts with another seed (read for the figures only).
 */
import { analyzeText } from '../src/core/analyzeText.js';
import { DEGENERATE_FAMILIES, familySamples, HEALTHY_FAMILIES } from '../test/corpus/families.js';
import { readTexts } from '../test/corpus/paths.js';
import { developmentCorpusDirs, loadRealCorpus } from '../test/corpus/realCorpus.js';

/** Variants per family and set. */
const PER_FAMILY = 60;
const TUNING_SEED = 7;
const HELD_OUT_SEED = 20261205;

export async function runFamiliesBench(): Promise<void> {
  const real = developmentCorpusDirs().flatMap((d) => (loadRealCorpus(d) ?? []).filter((s) => s.label === 'ok').map((s) => s.text));
  const sets: Array<[string, string[], number]> = [
    ['held out (test/corpus holdout + fresh texts)', [...readTexts('holdout'), ...readTexts('fresh')].map((t) => t.text), HELD_OUT_SEED],
  ];
  if (real.length > 0) sets.unshift(['tuning (healthy texts of the real corpora)', real, TUNING_SEED]);
  else console.log('the real development corpora are absent (../shared/corpus-real*): the tuning set is skipped');
  console.log(`${PER_FAMILY} variants per family and set; degenerate families: share failed; healthy ones: share ok (failed / warned)`);
  for (const [name, texts, seed] of sets) {
    const samples = familySamples(texts, seed, PER_FAMILY);
    console.log(`\n${name}, seed ${seed}`);
    let caught = 0;
    let degenerate = 0;
    for (const family of [...DEGENERATE_FAMILIES, ...HEALTHY_FAMILIES]) {
      const of = samples.filter((s) => s.family === family);
      const verdicts = of.map((s) => analyzeText(s.text).verdict);
      const fail = verdicts.filter((v) => v === 'fail').length;
      const warn = verdicts.filter((v) => v === 'warn').length;
      if (of[0]!.degenerate) {
        caught += fail;
        degenerate += of.length;
        console.log(`  ${family.padEnd(18)} collapse  fail ${fail}/${of.length}  (warn ${warn})`);
      } else {
        const ok = of.length - fail - warn;
        console.log(`  ${family.padEnd(18)} healthy   ok   ${ok}/${of.length}  (fail ${fail}, warn ${warn})`);
      }
    }
    console.log(`  all collapse families: ${caught}/${degenerate} = ${(caught / degenerate).toFixed(3)}`);
  }
}
