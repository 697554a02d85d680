import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalUnit, unitKind } from '../../../src/core/detectors/loops.js';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds.js';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const PROSE = healthyProse(600, 3);

describe('loops detector', () => {
  const cases: Array<[string, string, string[]]> = [
    [
      'a sentence loop running to the end fails',
      PROSE + ' The leader sends heartbeats to every follower.'.repeat(30),
      ['sentence_loop/fail!'],
    ],
    ['a line loop running to the end fails', PROSE + '\n' + 'INFO request handled in 12 ms\n'.repeat(40), ['line_loop/fail!']],
    ['a tag loop is tag spam', PROSE + '</div>'.repeat(120), ['tag_spam/fail!']],
    [
      'a long verbatim block left behind only warns',
      PROSE + ' The leader sends heartbeats to every follower.'.repeat(30) + ' ' + healthyProse(500, 9),
      ['sentence_loop/warn'],
    ],
    [
      'a few verbatim copies left behind say nothing',
      PROSE + ' The leader sends heartbeats to every follower.'.repeat(7) + ' ' + healthyProse(500, 9),
      [],
    ],
    ['a loop below the warn size says nothing', PROSE + ' Yes, indeed.'.repeat(4), []],
    ['healthy prose says nothing', PROSE, []],
  ];
  for (const [name, text, want] of cases) {
    it(name, () =>
      assert.deepEqual(
        verdicts(detect('loops', text).findings).filter((v) => !v.startsWith('loop_coverage')),
        want,
      ),
    );
  }

  it('with finish_reason stop, blocks that vary at the end warn; a verbatim loop still fails', () => {
    const blocks = Array.from(
      { length: 8 },
      (_, i) => `test('case ${i}', () => {\n  const value = build(${i});\n  assert.equal(value.size, 4);\n  assert.ok(value.ready);\n});\n`,
    ).join('\n');
    const varying = PROSE + '\n\n' + blocks;
    assert.deepEqual(
      verdicts(detect('loops', varying).findings).filter((v) => v.endsWith('/fail') || v.endsWith('/fail!')).length > 0,
      true,
      'fails without evidence',
    );
    assert.deepEqual(
      verdicts(detect('loops', varying, { finishReason: 'stop' }).findings).filter((v) => !v.startsWith('loop_coverage')),
      ['near_loop/warn'],
    );
    const verbatim = PROSE + ' The leader sends heartbeats to every follower.'.repeat(30);
    assert.deepEqual(verdicts(detect('loops', verbatim, { finishReason: 'stop' }).findings), ['sentence_loop/fail!']);
  });

  it('with finish_reason stop, a template whose copies each name something new is a list (warn) however many copies; the same template cycling a few names fails', () => {
    // made-up module names, each met for the first time in its line (no word of PROSE)
    const names = Array.from(
      { length: 40 },
      (_, i) => `mod${'bcdfghjklmnpqrstvwxz'[i % 20]}${'aeiou'[i % 5]}${'kprst'[Math.floor(i / 20)]}lo`,
    );
    const line = (name: string) => `expect(errorCodes.${name}).type.toBeAssignableTo(FastifyErrorConstructor).and.not.toBeNull();\n`;
    const list = PROSE + '\n\n' + names.map(line).join('');
    const cycling = PROSE + '\n\n' + names.map((_, i) => line(names[i % 3]!)).join('');
    const counting = PROSE + '\n\n' + names.map((_, i) => line(`codes[${i}]`)).join('');
    const kept = (text: string, finishReason: string | null) =>
      verdicts(detect('loops', text, { finishReason }).findings).filter((v) => !v.startsWith('loop_coverage'));
    const stopped = detect('loops', list, { finishReason: 'stop' });
    assert.deepEqual(verdicts(stopped.findings), ['near_loop/warn']);
    assert.match(stopped.findings[0]!.detail, /name something new \(new words per copy: [0-9.]+\): a list/);
    assert.ok(stopped.figures.region!.copies >= 16, `copies ${stopped.figures.region!.copies}`);
    // cut by the token limit, or no finish reason: no evidence the model stopped, it fails
    assert.ok(
      kept(list, 'length').some((v) => v.includes('/fail')),
      kept(list, 'length').join(),
    );
    assert.ok(
      kept(list, null).some((v) => v.includes('/fail')),
      kept(list, null).join(),
    );
    // three names over and over, or a number counting up, bring nothing new: still a loop
    assert.ok(
      kept(cycling, 'stop').some((v) => v.includes('/fail')),
      kept(cycling, 'stop').join(),
    );
    assert.ok(
      kept(counting, 'stop').some((v) => v.includes('/fail')),
      kept(counting, 'stop').join(),
    );
  });

  it('without evidence of a cut, blocks whose copies each bring new words warn; cut by the token limit they fail', () => {
    const names = ['quorvel', 'brandish', 'tamsin', 'volpert', 'ekrano', 'lisbeth', 'gorvana', 'mistrel'];
    const blocks = names
      .map(
        (n) =>
          `test('parses the ${n} header', () => {\n  const value = parse${n[0]!.toUpperCase()}${n.slice(1)}(fixture.${n}, options);\n  assert.equal(value.size, 4);\n  assert.ok(value.ready);\n});\n`,
      )
      .join('\n');
    const text = PROSE + '\n\n' + blocks;
    const unknown = detect('loops', text).findings.filter((f) => f.kind !== 'loop_coverage');
    assert.deepEqual(verdicts(unknown), [`${unknown[0]?.kind}/warn`]);
    assert.match(unknown[0]!.detail, /each copy brings words the text had not used \([0-9.]+ per copy\): blocks, not a loop/);
    const cut = verdicts(detect('loops', text, { finishReason: 'length' }).findings);
    assert.ok(
      cut.some((v) => v.endsWith('/fail') || v.endsWith('/fail!')),
      cut.join(),
    );
  });

  it('a punctuation-only unit (an ASCII chart) needs four times the size to be certain', () => {
    const chart = PROSE + '\n' + '| # '.repeat(200);
    assert.deepEqual(verdicts(detect('loops', chart).findings), ['punctuation_flood/fail']);
    assert.deepEqual(verdicts(detect('loops', PROSE + '\n' + '| # '.repeat(700)).findings), ['punctuation_flood/fail!']);
  });

  it('places the loop where a reader would say it starts', () => {
    const text = PROSE + ' The leader sends heartbeats to every follower.'.repeat(30);
    const { figures, findings } = detect('loops', text);
    assert.ok(Math.abs(findings[0]!.atChar - (PROSE.length + 1)) <= 1, `atChar ${findings[0]!.atChar}`);
    assert.equal(figures.unit.trim(), 'The leader sends heartbeats to every follower.');
  });

  it('names the unit kind from its text', () => {
    const t = DEFAULT_THRESHOLDS;
    assert.equal(unitKind('</div>', 1, 3, t), 'tag_spam');
    assert.equal(unitKind('!!! ', 1, 3, t), 'punctuation_flood');
    assert.equal(unitKind('the ', 1, 1, t), 'word_loop');
    assert.equal(unitKind('we go on ', 0.85, 3, t), 'near_loop');
    assert.equal(unitKind('a line\n', 1, 3, t), 'line_loop');
    assert.equal(unitKind('One. Two. Three. ', 1, 6, t), 'paragraph_loop');
    assert.equal(unitKind('It runs. ', 1, 3, t), 'sentence_loop');
    assert.equal(unitKind('and then ', 1, 2, t), 'phrase_loop');
  });

  it('rotates a unit found mid-sentence to the sentence start', () => {
    const text = 'x. Hello there. Hello there. Hello there.';
    const r = {
      periodTokens: 4,
      unitStart: 8,
      unitEnd: 21,
      end: text.length,
      coveredChars: text.length - 8,
      copies: 2.5,
      similarity: 1,
      contentSimilarity: 1,
      novelWords: 0,
    };
    const c = canonicalUnit(r, (a, b) => text.slice(a, b));
    assert.equal(c.unit, 'Hello there. ');
    assert.equal(c.onset, 3 + 13);
  });
});
