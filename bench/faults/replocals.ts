import { analyzedTexts, analyzeFile, type Case, check, runCases } from './shared.js';

/**
 * The repetition detector's shared table readings from outside (branch fix/rep-locals): one
 * reading of whether the end is rows of a table answers for the readings that end at the same
 * place (blank lines and spaces after the last row aside). Rows of data at the end, with blank
 * lines, CRs or a trailing tab after them, are still read as a table and not as a list that runs
 * away; a megabyte of rows is judged in bounded time. About 2 s.
 */

/** `n` rows of comma-separated data from row `from` on, each naming a new item. */
function rows(n: number, from = 0): string {
  return Array.from({ length: n }, (_, i) => `${from + i},item ${from + i},${((from + i) * 37) % 1000}.${(from + i) % 10}`).join('\n');
}

const INTRO = 'Here are the measurements you asked for, one row per item, with its id, name and weight in grams.\n\n';

const TEXTS = {
  // 600 rows, then blank lines with spaces and CRs: the same rows whichever end a reading takes
  blanks: `${INTRO}id,name,weight\n${rows(600)}\r\n \r\n\n   \n`,
  // tab-separated rows whose last one ends in a tab
  tabs: `${INTRO}${rows(400).replace(/,/g, '\t')}\t`,
  // a megabyte of rows
  megabyte: `${INTRO}${rows(46_000)}\n`,
};

export async function replocalsCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file } = analyzedTexts(root, 'replocals', TEXTS);
  // rows of data return to their template by design: a list that runs away or a cycle would be a false fail
  const notRunaway = async (name: keyof typeof TEXTS): Promise<string> => {
    const a = await analyzeFile(file(name));
    check(
      a.code !== null && !a.findings.some((f) => f.startsWith('list_runaway') || f.startsWith('cycling')),
      `exit ${a.code}, ${a.verdict}: ${a.findings.join(', ')}`,
    );
    return `exit ${a.code}, ${a.verdict} (${TEXTS[name].length} chars, ${Math.round(a.ms)} ms)${a.findings.length ? `: ${a.findings.join(', ').slice(0, 80)}` : ''}`;
  };
  const cases: Case[] = [
    ['analyze: 600 rows of data then blank lines with spaces and CRs read as a table, no runaway list', () => notRunaway('blanks')],
    ['analyze: 400 tab-separated rows, the last ending in a tab, read as a table, no runaway list', () => notRunaway('tabs')],
    ['analyze: a megabyte of rows of data is judged in bounded time, no runaway list', () => notRunaway('megabyte')],
  ];
  await runCases(cases, results);
}
