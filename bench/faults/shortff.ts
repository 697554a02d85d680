import { judgedOutputCases } from './judgedOutputs.js';

/**
 * Issues 35 and 36 from outside: a daemon (child process) probes an upstream that streams fixed
 * outputs, and judges each as a whole sample. Short collapses the token reading missed (special
 * tokens in a cycle, two items alternating while their counters rise) must fail; healthy shapes a
 * missing normalisation once failed (Chinese exam answers with end tags glued to their lines, a
 * product title strung of capitalised keywords) must stay ok. About 5 s.
 */

/** What each upstream path answers, written for this bench. */
const OUTPUTS: Record<string, string> = {
  cycle: ' <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT> <ASSISTANT> <TOOL> <ASSISTANT>',
  counters: `${['奈良', '京都', '大阪', '兵庫', '滋賀', '三重'].map((p, i) => `${i + 1}.${p}`).join('\n')}\n${Array.from(
    { length: 14 },
    (_, i) => `${i + 7}.${i % 2 ? '和歌山' : '徳島'}`,
  ).join('\n')}`,
  exam: [
    '（1）【答案】B、C <eoa>',
    '（2）【答案】这首词上片写景，下片抒情，"归路"在这里指回乡的路，表达了作者对故乡深沉的思念和漂泊在外的孤独。<eoa>',
  ].join('\n'),
  title: [
    '| Item | Price | Rating |',
    '| ------ | ------ | ------ |',
    '| Lumora (LX2) | $12.49 | 4.6 |',
    '| 24-Piece Brush Set | $19.99 | 4.7 |',
    '',
    'The Lumora Watercolor Brushes Round Brushes Flat Brushes Detail Brushes Fine Tip Nylon Brushes Synthetic Bristle Brush Set for Painting Sketching Calligraphy Lettering Craft Hobby Studio Classroom Art Supplies, 24 Piece are a fair buy at their prices and suit any careful painter or student.',
  ].join('\n'),
};

export async function shortffCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  await judgedOutputCases(root, results, {
    name: 'shortff',
    label: 'short outputs',
    outputs: OUTPUTS,
    maxTokens: 200,
    expect: [
      ['cycle', 'fail', 'special tokens in a cycle, 3.4 copies as the whole output'],
      ['counters', 'fail', 'two items alternating 7 times while their counters rise'],
      ['exam', 'ok', 'a Chinese exam answer with <eoa> glued to its lines and ASCII quotes'],
      ['title', 'ok', 'a price table then a product title strung of capitalised keywords'],
    ],
  });
}
