import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect, verdicts } from '../../helpers/detectorHarness.js';

describe('whitespace detector', () => {
  const cases: Array<[string, string, string[]]> = [
    ['no output is empty', '', ['empty/fail']],
    ['only whitespace is empty', '\n \n  \t', ['empty/fail']],
    ['a long whitespace-only output is a certain empty', ' '.repeat(900), ['empty/fail!']],
    ['200 spaces after text fail', 'Answer: yes.' + ' '.repeat(200) + 'More.', ['whitespace_flood/fail']],
    [
      'a 230-space table cell the text moves on from warns',
      '| name | alias |\n|---|---|\n| `gb18030` |' + ' '.repeat(230) + '|\n' + '| `big5` | `big5-hkscs`, `cn-big5`, `csbig5` |\n'.repeat(8),
      ['whitespace_flood/warn'],
    ],
    ['a 900-space run fails though the text moves on', 'Answer: yes.' + ' '.repeat(900) + 'More. '.repeat(60), ['whitespace_flood/fail']],
    ['a flood running on to the end is certain', 'Answer: yes.' + '\n'.repeat(900), ['whitespace_flood/fail!']],
    ['80 spaces warn', 'Answer: yes.' + ' '.repeat(80) + 'More.', ['whitespace_flood/warn']],
    ['indented code says nothing', 'fn main() {\n' + '        let x = 1;\n'.repeat(30) + '}\n', []],
  ];
  for (const [name, text, want] of cases) it(name, () => assert.deepEqual(verdicts(detect('whitespace', text).findings), want));
  it('counts whitespace chars and the longest run with its start', () => {
    const { figures } = detect('whitespace', 'a  b     c');
    assert.deepEqual([figures.spaceChars, figures.longestRun, figures.longestRunStart], [7, 5, 4]);
  });
});
