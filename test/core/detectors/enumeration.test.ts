/**
 * The enumeration detector on its own: lists that never end (one template with a new word
 * each time, numbered blocks that count on and on, items that grow by a clause), in the
 * shapes real runaways take (texts written here, not copied from any corpus), next to
 * healthy lists, tables, data and code that must stay quiet; then the detector contract.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEnumerationDetector } from '../../../src/core/detectors/enumeration.js';
import { runDetector } from '../../../src/core/detectors/runDetector.js';
import { assertSplitInvariant } from '../../helpers/detectorHarness.js';

const VERBS = [
  'unfold',
  'develop',
  'evolve',
  'emerge',
  'arise',
  'surface',
  'take shape',
  'come about',
  'come to pass',
  'happen',
  'take place',
  'come to light',
  'come true',
  'materialize',
  'transpire',
  'crystallize',
  'settle',
  'begin',
  'appear',
  'result',
];

/** "what they had been hoping to X", cycling through the verbs with a few variations. */
function paraphraseRunaway(items: number): string {
  const lines = ['what they had hoped for', 'what they had looked forward to', 'what they had counted on'];
  for (let i = 0; lines.length < items; i++)
    lines.push(`what they had been hoping to ${VERBS[i % VERBS.length]}${i % 7 === 3 ? ' soon' : ''}`);
  return lines.join('\n');
}

/** "**Session N:**" with the same three bullets rotating, numbered far beyond need. */
function sessionsRunaway(n: number): string {
  const slots = [
    ['- Tutor A: 9-10 am', '- Student B: 1-2 pm', '- Length: 30 min'],
    ['- Tutor A: 10:30-11 am', '- Student C: 2-3 pm', '- Length: 60 min'],
    ['- Student B: 10-11 am', '- Student C: 3-4 pm', '- Length: 90 min'],
  ];
  let s = 'Here is the schedule for the tutoring sessions:\n\n';
  for (let i = 1; i <= n; i++) s += `**Session ${i}:**\n\n${slots[i % 3]!.join('\n')}\n\n`;
  return s + `**Session ${n + 1}:**`;
}

/** Each item the previous one with one more part: ever-longer package names. */
function growingRunaway(n: number): string {
  const parts = ['config', 'loader', 'options', 'schema', 'rules', 'strict', 'range', 'min', 'max', 'list', 'map', 'set'];
  let name = 'express';
  const lines = ['To set up the project, install the type packages:', '```'];
  for (let i = 0; i < n; i++) {
    name = i % 4 === 3 ? name.replace(/-[a-z]+$/, `-${parts[(i * 5) % parts.length]}`) : `${name}-${parts[i % parts.length]}`;
    lines.push(`npm install @types/${name}@latest --save-dev`);
  }
  return lines.join('\n');
}

/** Statements of one closing template, with a new noun each time, blank lines between. */
function closingRunaway(n: number): string {
  const nouns = [
    'file',
    'program',
    'output',
    'changelog',
    'credits',
    'known issues',
    'roadmap',
    'references',
    'notice',
    'license',
    'appendix',
    'index',
  ];
  let s = 'The program reads the file and prints the total.\n\n';
  for (let i = 0; i < n; i++) s += `**End of ${nouns[i % nouns.length]}:** This is where the ${nouns[i % nouns.length]} ends. \n\n`;
  return s;
}

const TIPS = [
  'Sleep well: keep a regular bedtime and a dark, quiet room.',
  'Eat breakfast: a mix of protein and fibre keeps energy steady.',
  'Move every hour: a short walk helps focus more than coffee.',
  'Plan the day: three priorities written down before opening email.',
  'Batch small tasks: answer messages at set times, not all day.',
  'Take real breaks: step away from the screen for ten minutes.',
  'Drink water: dehydration feels like tiredness long before thirst.',
  'Limit meetings: an agenda and an end time for every one.',
  'Say no politely: protect the hours you need for deep work.',
  'Review the week: on Friday, note what worked and what did not.',
];

describe('enumeration detector: lists that never end fail', () => {
  it('one phrase with a new verb each time, hundreds of lines to the end', () => {
    const text = 'Here are alternatives for the phrase:\n\n' + paraphraseRunaway(200) + '\nwhat they had been';
    const { figures, findings } = runDetector(createEnumerationDetector(), text);
    assert.equal(findings.length, 1, JSON.stringify(figures));
    assert.equal(findings[0]!.kind, 'list_runaway');
    assert.equal(findings[0]!.severity, 'fail');
    assert.equal(findings[0]!.atChar, text.indexOf('what they had'));
    assert.ok(figures.listItems >= 200 && figures.listSimilarity >= 0.5, JSON.stringify(figures));
    assert.match(findings[0]!.detail, /list of \d+ items opening like "what they had/);
  });

  it('a list the model ended itself (finish_reason stop) only warns, unless it ran far beyond any answer', () => {
    const text = paraphraseRunaway(50);
    assert.deepEqual(
      runDetector(createEnumerationDetector(), text, { finishReason: 'stop' }).findings.map((f) => f.severity),
      ['warn'],
    );
    assert.deepEqual(
      runDetector(createEnumerationDetector(), paraphraseRunaway(120), { finishReason: 'stop' }).findings.map((f) => f.severity),
      ['fail'],
    );
  });

  it('numbered blocks (a heading and three bullets) counting on to 100', () => {
    const { figures, findings } = runDetector(createEnumerationDetector(), sessionsRunaway(100));
    assert.equal(findings[0]?.kind, 'list_runaway', JSON.stringify(figures));
    assert.match(findings[0]!.detail, /numbered up to 100/);
    // a count through one template is how configs look too: at 40 it passes, unless the token limit cut it
    assert.deepEqual(runDetector(createEnumerationDetector(), sessionsRunaway(40)).findings, []);
    assert.equal(
      runDetector(createEnumerationDetector(), sessionsRunaway(40), { finishReason: 'length' }).findings[0]?.kind,
      'list_runaway',
    );
  });

  it('a closing statement with a new noun each time, 48 paragraphs', () => {
    const { figures, findings } = runDetector(createEnumerationDetector(), closingRunaway(48));
    assert.equal(findings[0]?.kind, 'list_runaway', JSON.stringify(figures));
  });

  it('each item the previous one grown, 20 lines in a code block', () => {
    const text = growingRunaway(20);
    const { figures, findings } = runDetector(createEnumerationDetector(), text);
    assert.ok(figures.listGrowth >= 0.3, JSON.stringify(figures));
    assert.equal(findings[0]?.kind, 'list_runaway', JSON.stringify(figures));
    assert.match(findings[0]!.detail, /previous item grown/);
  });

  it('18 near-duplicate items cut mid-item fail only when the token limit cut them', () => {
    const text = 'Descriptions of the picture:\n' + paraphraseRunaway(18) + '\nwhat they';
    assert.deepEqual(runDetector(createEnumerationDetector(), text).findings, []);
    const cut = runDetector(createEnumerationDetector(), text, { finishReason: 'length' });
    assert.equal(cut.findings[0]?.kind, 'list_runaway', JSON.stringify(cut.figures));
    assert.match(cut.findings[0]!.detail, /token limit/);
  });
});

describe('enumeration detector: healthy lists, tables, data and code stay quiet', () => {
  const quiet: [string, string][] = [
    [
      'a numbered list of 30 parallel tips that ends',
      'Thirty habits:\n\n' +
        Array.from({ length: 30 }, (_, i) => `${i + 1}. **${TIPS[i % 10]!.split(':')[0]} (${i})**: ${TIPS[i % 10]!.split(': ')[1]}`).join(
          '\n',
        ) +
        '\n\nPick two or three and start this week.\n',
    ],
    [
      '100 different names, numbered',
      Array.from(
        { length: 100 },
        (_, i) =>
          `${i + 1}. ${['Alice', 'Bruno', 'Chen', 'Dara', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun'][i % 10]} ${['Smith', 'Okafor', 'Silva', 'Novak', 'Tanaka', 'Haddad', 'Berg', 'Costa', 'Kim', 'Ruiz'][Math.floor(i / 10)]}`,
      ).join('\n'),
    ],
    [
      'a 30-day plan with alternating days',
      Array.from(
        { length: 30 },
        (_, i) =>
          `Day ${i + 1}: ${i % 7 === 6 ? 'Rest and stretch for twenty minutes' : i % 2 ? 'Run 5 km at an easy pace' : 'Swim 1 km and do core work'}`,
      ).join('\n') + '\n',
    ],
    [
      'a CSV leaderboard with a small vocabulary',
      'name,win_rate,avg_length,mode\n' +
        Array.from(
          { length: 200 },
          (_, i) =>
            `model-${['alpha', 'beta', 'gamma', 'delta'][i % 4]}-${i},${(i * 37) % 100}.${i % 9},${1000 + i * 3},${i % 3 ? 'verified' : 'community'}`,
        ).join('\n') +
        '\n',
    ],
    [
      'YAML with many similar keys',
      'services:\n' +
        Array.from(
          { length: 60 },
          (_, i) => `  - name: service-${i}\n    enabled: true\n    port: ${8000 + i}\n    health check: every ${10 + (i % 5)} seconds`,
        ).join('\n') +
        '\n',
    ],
    [
      'type declarations that share an opening',
      Array.from(
        { length: 80 },
        (_, i) => `export declare function handler${i}(request: Request${i % 3}, options?: Options): Promise<Result${i}>;`,
      ).join('\n') + '\n',
    ],
    [
      'calls in a test file',
      Array.from({ length: 80 }, (_, i) => `t.equal(parse('case ${i}').value, ${i}, 'parses case ${i}')`).join('\n') + '\n',
    ],
    [
      'markup rows',
      Array.from({ length: 80 }, (_, i) => `<li><a href="api/item-${i}.html">Item ${i} reference</a></li>`).join('\n') + '\n',
    ],
    [
      'a runaway that ended: the answer moved on',
      paraphraseRunaway(45) +
        '\n\n' +
        'In short, every one of these phrases keeps the meaning of waiting for something expected. '.repeat(6) +
        '\n',
    ],
    [
      'the same line over and over (a loop, the loop detectors report it)',
      'Start.\n' + 'The answer is in the box on the shelf.\n'.repeat(60),
    ],
  ];
  for (const [name, text] of quiet) {
    it(name, () => {
      const { figures, findings } = runDetector(createEnumerationDetector(), text);
      assert.deepEqual(findings, [], JSON.stringify(figures));
    });
  }
});

describe('enumeration detector: contract', () => {
  const texts = [
    paraphraseRunaway(60),
    sessionsRunaway(20),
    growingRunaway(25),
    closingRunaway(20),
    '1. 第一项：苹果\n2. 第一项：香蕉\n3. 第一项：橙子\r\n' + '- Emoji 😀 item\r\n'.repeat(10) + 'x'.repeat(900) + '\nend',
  ];

  it('gives the same figures for any split of the text, and snapshots mid-way change nothing', () =>
    assertSplitInvariant(createEnumerationDetector, texts, 11));

  it('keeps bounded state: thousands of distinct templates, then a runaway at the end is still found', () => {
    let text = '';
    for (let i = 0; i < 5000; i++)
      text += `${['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'][i % 5]}${i} notes item ${i} with words ${i * 7}\n`;
    const { findings } = runDetector(createEnumerationDetector(), text + paraphraseRunaway(50));
    assert.equal(findings[0]?.kind, 'list_runaway');
  });
});
