import { judgedOutputCases } from './judgedOutputs.js';

/**
 * Issue 35's realworld false fails from outside: a daemon (child process) probes an upstream
 * that streams code, data and fixtures of the shapes real files failed on (the `})` staircase
 * that ends a test file, control chars in the string literals of a test, host names whose labels
 * are in two scripts, npm scripts chained by `&&`, a help text kept as one JSON string); each must
 * stay ok, while closing brackets that close nothing and control chars strewn in prose must
 * still fail. About 5 s.
 */

/** A test file of callbacks nested `depth` deep, each closed on its own line. */
function nestedTests(depth: number): string {
  const open = ["const { test } = require('node:test')", ''];
  const close: string[] = [];
  for (let d = 0; d < depth; d++) {
    const pad = '  '.repeat(d);
    open.push(`${pad}${d === 0 ? 'test' : 'emitter.once'}('step ${d} of the reopen', (err, value${d}) => {`);
    open.push(`${pad}  t.error(err)`);
    open.push(`${pad}  t.equal(value${d}.size, ${d + 4}, 'the file holds ${d + 4} lines after step ${d}')`);
    close.unshift(`${pad}})`);
  }
  return `${open.join('\n')}\n${'  '.repeat(depth)}stream.end()\n${close.join('\n')}\n`;
}

const PROSE = [
  'The harbour wakes before the gulls, and the first boats slip out past the breakwater while the town is still asleep.',
  'By noon the market is loud with prices, and the catch is sold before the ice has melted in the crates.',
  'A cooper rolls his barrels down the lane, and the bells begin across the square as the schoolchildren run home.',
  'In the evening the wind turns, the nets are hung to dry along the wall, and the lamps are lit one by one.',
  'Nobody here remembers a winter as mild as this one, though the old men argue about it over their cards.',
].join(' ');

/** What each upstream path answers, written for this bench. */
const OUTPUTS: Record<string, string> = {
  brackets: nestedTests(7),
  'closers-past': `${PROSE}\n${'})\n'.repeat(30)}`,
  literals: [
    "test('control characters are escaped', (t) => {",
    `  const cases = [['\u0000', '%00'], ['\u0007', '%07'], ['\u001f', '%1F'], ['\u007f', '%7F']]`,
    '  for (const [input, output] of cases) t.assert.strictEqual(escape(input), output)',
    '})',
    "test('colours are kept', (t) => {",
    `  const line = \`[\${time}] LEVEL: \u001b[32mINFO\u001b[39m (\${pid}): \u001b[36mfoo\u001b[39m\``,
    "  t.assert.strictEqual(format({ level: 30, msg: 'foo' }), line)",
    '})',
  ].join('\n'),
  'controls-in-prose': PROSE.replace(/(\w{3})(\w+) /g, (_, a: string, b: string) => `${a}\u0007${b} `),
  hosts: ['商店', '书店.公司', '花园', '茶馆.网络', '市场.公司', '银行']
    .flatMap((label, i) => [
      `checkHost('${label}.example.cn', '${label}.example.cn');`,
      `checkHost('www.${label}.shop${i}.cn', '${label}.shop${i}.cn');`,
      `checkAddress('user${i}@${label}.example.org', ['user${i}@xn--${i}k${i}a.example.org']);`,
    ])
    .join('\n'),
  'npm-scripts': JSON.stringify(
    {
      name: 'example-client',
      scripts: {
        test: ['generate-pem', 'test:unit', 'test:fetch', 'test:cache', 'test:cookies', 'test:stream', 'test:proxy', 'test:mock']
          .concat(['test:retry', 'test:pool', 'test:agent', 'test:types', 'test:websocket', 'test:eventsource', 'test:wpt'])
          .map((s) => `npm run ${s}`)
          .join(' && '),
      },
    },
    null,
    2,
  ),
  'help-json': JSON.stringify({
    help: [
      'Usage: browser-cli <command> [options]',
      '',
      'Emulation:',
      ...['color-scheme', 'reduced-motion', 'forced-colors', 'contrast', 'media', 'viewport', 'locale', 'timezone'].flatMap((s) => [
        `  set-${s.padEnd(24)}set ${s.replace('-', ' ')} emulation`,
        `  clear-${s.padEnd(22)}clear ${s.replace('-', ' ')} emulation`,
      ]),
    ].join('\n'),
  }),
};

export async function realworldCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  await judgedOutputCases(root, results, {
    name: 'realworld',
    label: 'real files',
    outputs: OUTPUTS,
    maxTokens: 4000,
    expect: [
      ['brackets', 'ok', 'a test file ending in `})` closing 7 nested callbacks'],
      ['closers-past', 'fail', 'prose then 30 `})` that close nothing'],
      ['literals', 'ok', 'control chars in the string literals of a test'],
      ['controls-in-prose', 'fail', 'control chars strewn in prose words'],
      ['hosts', 'ok', 'host names whose labels are in two scripts'],
      ['npm-scripts', 'ok', 'a package.json chaining 15 npm scripts with &&'],
      ['help-json', 'ok', 'a help text kept as one JSON string (escaped line breaks)'],
    ],
  });
}
