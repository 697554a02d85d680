import { analyzedTexts, analyzeFile, type Case, check, runCases } from './shared.js';

/**
 * The repetition detector's end readings from outside (branch perf8rep): the restated reading
 * now counts only the last 512 words' sequences, the normalised copies compute the Z function
 * only for the periods they read, and the normalised view is read from a typed array. An end of
 * prose that goes back over itself still fails, and texts past the 64 KB window, with their
 * whitespace at the end past the copies' window or a line of 70 KB, are still judged. About 2 s.
 */

const NOUNS =
  'river bridge garden window letter doctor market village teacher lantern harbour valley engine kettle meadow orchard pilot painter station tower'.split(
    ' ',
  );
const ADJECTIVES = 'quiet narrow golden early distant careful heavy silver gentle crowded'.split(' ');
const VERBS = 'watched carried opened followed painted answered repaired visited'.split(' ');

/** A sentence of prose, its words drawn by a hash of `n` (function words in every other place). */
function sentence(n: number): string {
  const pick = <T>(list: readonly T[], k: number): T => {
    let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ k;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    return list[((h ^ (h >>> 12)) >>> 0) % list.length]!;
  };
  return `The ${pick(ADJECTIVES, 1)} ${pick(NOUNS, 2)} of the ${pick(NOUNS, 3)} ${pick(VERBS, 4)} the ${pick(ADJECTIVES, 5)} ${pick(NOUNS, 6)} while we ${pick(VERBS, 7)} it from the ${pick(NOUNS, 8)}.`;
}

/** A paragraph of ten sentences, from sentence `n` on. */
function paragraph(n: number): string {
  return Array.from({ length: 10 }, (_, k) => sentence(n * 10 + k)).join(' ');
}

/** Six paragraphs, then the same six twice more in other orders with a word changed in each: the end goes back over itself. */
function restating(): string {
  const first = [0, 1, 2, 3, 4, 5].map(paragraph);
  const again = (order: number[], word: string) => order.map((i) => first[i]!.replace(' while we ', ` while ${word} `));
  return [...first, ...again([3, 0, 5, 1, 4, 2], 'they'), ...again([2, 4, 1, 5, 0, 3], 'you')].join('\n\n');
}

/** Prose of about `chars` chars, paragraphs from `seed` on, no two the same. */
function prose(chars: number, seed: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let k = seed; n < chars; k++) {
    const p = paragraph(k);
    parts.push(p);
    n += p.length + 2;
  }
  return parts.join('\n\n');
}

const TEXTS = {
  restating: restating(),
  // past the 64 KB window, and 3 KB of spaces and blank lines after its end (past the copies' window slack)
  trailing: `${prose(70_000, 100)}${' \n'.repeat(1500)}`,
  // one line of 70 KB
  oneLine: prose(70_000, 300).replace(/\n\n/g, ' '),
};

export async function perf8repCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file } = analyzedTexts(root, 'perf8rep', TEXTS);
  const judged = async (name: keyof typeof TEXTS): Promise<string> => {
    const a = await analyzeFile(file(name));
    check(a.verdict === 'ok' || a.verdict === 'warn' || a.verdict === 'fail', `exit ${a.code}, verdict ${a.verdict}`);
    return `exit ${a.code}, ${a.verdict} (${TEXTS[name].length} chars)${a.reason ? `: ${a.reason.slice(0, 80)}` : ''}`;
  };
  const cases: Case[] = [
    [
      'analyze: prose whose end goes back over its paragraphs, reordered, a word changed in each, fails',
      async () => {
        const a = await analyzeFile(file('restating'));
        check(a.verdict === 'fail', `exit ${a.code}, ${a.verdict}: ${a.reason}`);
        return `exit ${a.code}, fail: ${a.findings.join(', ').slice(0, 100)}`;
      },
    ],
    ['analyze: 70 KB of prose and 3 KB of whitespace after it are judged', () => judged('trailing')],
    ['analyze: one line of 70 KB of prose is judged', () => judged('oneLine')],
  ];
  await runCases(cases, results);
}
