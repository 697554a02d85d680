import { analyzeText } from '../src/core/analyzeText.js';
import { translatedTexts } from '../test/corpus/translatedTexts.js';

/** npm run bench -- translations: false alarms on the healthy translated texts of the machine (test/corpus/translatedTexts.ts). */
export async function runTranslationsBench(): Promise<void> {
  const texts = translatedTexts();
  if (texts.length === 0) {
    console.log(
      '  no translated texts found (node_modules/typescript/lib/*/diagnosticMessages.generated.json, /usr/share/gnupg/help.*.txt, /usr/share/locale/*/LC_MESSAGES/*.mo)',
    );
    return;
  }
  const rows = new Map<string, { n: number; fail: number; warn: number; examples: string[] }>();
  const bySource = new Map<string, { n: number; fail: number; warn: number }>();
  // per source, how many fail first with each kind
  const kinds = new Map<string, Map<string, number>>();
  for (const t of texts) {
    const a = analyzeText(t.text);
    const key = `${t.source}/${t.lang}`;
    if (a.verdict === 'fail') {
      const k = kinds.get(t.source) ?? new Map<string, number>();
      const kind = (a.reasons[0] ?? '').split(':')[0]!;
      k.set(kind, (k.get(kind) ?? 0) + 1);
      kinds.set(t.source, k);
    }
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
  console.log(
    'healthy translated texts (TypeScript diagnostics: one message, six in a row; GnuPG help: one entry, a file whole; gettext catalogs: translations of 80+ chars, two halves of the catalogs)',
  );
  for (const [source, s] of bySource) {
    const k = [...(kinds.get(source) ?? [])].sort((x, y) => y[1] - x[1]).map(([kind, n]) => `${kind} ${n}`);
    console.log(
      `  ${source.padEnd(11)} ${String(s.n).padStart(6)} texts  fail ${pct(s.fail, s.n)} (${s.fail})  warn ${pct(s.warn, s.n)} (${s.warn})${k.length > 0 ? `  first kinds: ${k.join(', ')}` : ''}`,
    );
  }
  const all = [...bySource.values()].reduce((x, s) => ({ n: x.n + s.n, fail: x.fail + s.fail, warn: x.warn + s.warn }), {
    n: 0,
    fail: 0,
    warn: 0,
  });
  console.log(
    `  all         ${String(all.n).padStart(6)} texts  fail ${pct(all.fail, all.n)} (${all.fail})  warn ${pct(all.warn, all.n)} (${all.warn})`,
  );
  // the rows with the most fails first, at most 40 (the catalogs alone give a row per language of each half)
  console.log('  by source and language, where any is not ok (the 40 with the most):');
  for (const [key, r] of [...rows]
    .filter(([, r]) => r.fail + r.warn > 0)
    .sort((x, y) => y[1].fail + y[1].warn - x[1].fail - x[1].warn)
    .slice(0, 40)) {
    console.log(`    ${key.padEnd(14)} ${String(r.n).padStart(5)}  fail ${r.fail}  warn ${r.warn}`);
    for (const e of r.examples) console.log(`      ${e}`);
  }
}
