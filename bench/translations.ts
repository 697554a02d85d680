import { analyzeText } from '../src/core/analyzeText.js';
import { translatedTexts } from '../test/corpus/translatedTexts.js';

/** npm run bench -- translations: false alarms on the healthy translated texts of the machine (test/corpus/translatedTexts.ts). */
export async function runTranslationsBench(): Promise<void> {
  const texts = translatedTexts();
  if (texts.length === 0) {
    console.log(
      '  no translated texts found (node_modules/typescript/lib/*/diagnosticMessages.generated.json, /usr/share/gnupg/help.*.txt)',
    );
    return;
  }
  const rows = new Map<string, { n: number; fail: number; warn: number; examples: string[] }>();
  const bySource = new Map<string, { n: number; fail: number; warn: number }>();
  for (const t of texts) {
    const a = analyzeText(t.text);
    const key = `${t.source}/${t.lang}`;
    const r = rows.get(key) ?? { n: 0, fail: 0, warn: 0, examples: [] };
    const s = bySource.get(t.source) ?? { n: 0, fail: 0, warn: 0 };
    r.n++;
    s.n++;
    if (a.verdict !== 'ok') {
      r[a.verdict]++;
      s[a.verdict]++;
      if (r.examples.length < 2)
        r.examples.push(`${a.verdict} ${(a.reasons[0] ?? '').slice(0, 70)} «${t.text.slice(0, 60).replace(/\s+/g, ' ')}»`);
    }
    rows.set(key, r);
    bySource.set(t.source, s);
  }
  const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(2)}%`;
  console.log('healthy translated texts (TypeScript diagnostics: one message, six in a row; GnuPG help: one entry, a file whole)');
  for (const [source, s] of bySource)
    console.log(
      `  ${source.padEnd(7)} ${String(s.n).padStart(6)} texts  fail ${pct(s.fail, s.n)} (${s.fail})  warn ${pct(s.warn, s.n)} (${s.warn})`,
    );
  const all = [...bySource.values()].reduce((x, s) => ({ n: x.n + s.n, fail: x.fail + s.fail, warn: x.warn + s.warn }), {
    n: 0,
    fail: 0,
    warn: 0,
  });
  console.log(
    `  all     ${String(all.n).padStart(6)} texts  fail ${pct(all.fail, all.n)} (${all.fail})  warn ${pct(all.warn, all.n)} (${all.warn})`,
  );
  console.log('  by source and language, where any is not ok:');
  for (const [key, r] of rows) {
    if (r.fail + r.warn === 0) continue;
    console.log(`    ${key.padEnd(14)} ${String(r.n).padStart(5)}  fail ${r.fail}  warn ${r.warn}`);
    for (const e of r.examples) console.log(`      ${e}`);
  }
}
