import { analyzedTexts, analyzeFile, type Case, check, runCases } from './shared.js';

/**
 * Fenced code blocks from outside (branch perf8lang): the prose reading now passes over a
 * block's tokens keeping only what a chunk of code leaves behind, and the fenced reading still
 * reads the block. A healthy answer with blocks whose lines end in escapes stays ok; a block
 * that turned into a run-on list or into words glued across scripts still fails from the
 * fenced reading; 1 MB whose fences open mid-line (every block's closing fence opens one, so
 * half the text is "inside" a block) is judged in bounded time. About 2 s.
 */

const WORDS = [
  'river',
  'stone',
  'lamp',
  'orbit',
  'paper',
  'cloud',
  'anchor',
  'violet',
  'garden',
  'silver',
  'thunder',
  'maple',
  'harbor',
  'copper',
  'falcon',
  'meadow',
];
const GLUE = '日至宝贝逃中文字';

function gluedBlock(): string {
  let s = 'Here is the function you asked for:\n\n```js\n';
  for (let i = 0; i < 40; i++) s += WORDS[(i * 7) % 16]! + GLUE[i % 8]! + WORDS[(i * 3 + 1) % 16]! + (i % 5 === 4 ? '\n' : ' ');
  return `${s}\n\`\`\`\n`;
}

function fencesMidLine(chars: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    let s = `Step ${i} of the guide checks the ${WORDS[i % 16]} value and writes the result to the log. `;
    if (i % 3 === 0) s += '```js\nfor (let i = 0; i < n; i++) {\n  total += values[i] * 2;\n}\n```\n\n';
    parts.push(s);
    n += s.length;
  }
  return parts.join('').slice(0, chars);
}

const TEXTS = {
  escapes:
    'To install the package, run the following command in your project folder:\n\n```sh\nnpm install --save fastify\necho "done\\n"\n```\n\nThen start the server with `node server.js` and open the page in your browser. The log prints one line per request:\n\n```js\nconsole.log(`listening on ${port}\\n`);\n```\n\nThat is all you need for a first run.',
  list: `Here is the code you asked for:\n\n\`\`\`python\n${'apple banana cherry delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu apple banana cherry delta echo foxtrot golf hotel india juliet kilo lima apple banana cherry delta echo foxtrot golf'}\n\`\`\`\n`,
  glued: gluedBlock(),
  midLine: fencesMidLine(1_000_000),
};

export async function perf8langCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file, healthy } = analyzedTexts(root, 'perf8lang', TEXTS);
  const fails = async (name: keyof typeof TEXTS, rule: string): Promise<string> => {
    const a = await analyzeFile(file(name));
    check(a.verdict === 'fail' && a.findings.some((f) => f.endsWith(rule)), `exit ${a.code}, ${a.verdict}: ${a.findings.join('; ')}`);
    return `exit ${a.code}, fail (${a.findings.join('; ')})`;
  };
  const cases: Case[] = [
    ['analyze: an answer with fenced blocks whose lines end in escaped line breaks is judged ok', () => healthy('escapes')],
    ['analyze: a fenced block that turned into a run-on list of words fails (fenced.listItems)', () => fails('list', 'fenced.listItems')],
    ['analyze: a fenced block of words glued across scripts fails (fenced.malformedShare)', () => fails('glued', 'fenced.malformedShare')],
    [
      'analyze: 1 MB whose fences open mid-line (half the text inside blocks) is judged within 10 s',
      async () => {
        const a = await analyzeFile(file('midLine'));
        check(a.verdict === 'ok' || a.verdict === 'warn' || a.verdict === 'fail', `exit ${a.code}, verdict ${a.verdict}`);
        check(a.ms < 10_000, `${Math.round(a.ms)} ms`);
        return `exit ${a.code}, ${a.verdict} in ${Math.round(a.ms)} ms`;
      },
    ],
  ];
  await runCases(cases, results);
}
