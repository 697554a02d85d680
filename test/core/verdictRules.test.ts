import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finding, type Finding } from '../../src/core/finding.js';
import { applyRules, collapseFinding, collapseOnset, VERDICT_RULES, type VerdictRule } from '../../src/core/verdictRules.js';

const rule = (name: string): VerdictRule => {
  const r = VERDICT_RULES.find((x) => x.name === name);
  assert.ok(r, `no rule ${name}`);
  return r;
};
const kinds = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.kind}/${f.severity}`);

describe('verdict rules, each alone', () => {
  it('empty_says_all: an empty output keeps only the empty finding', () => {
    const fs = [finding('whitespace_flood', 'fail', 0, 'x'), finding('empty', 'fail', 0, 'x'), finding('stutter', 'warn', -1, 'x')];
    assert.deepEqual(kinds(rule('empty_says_all').apply(fs)), ['empty/fail']);
    const other = [finding('word_loop', 'fail', 10, 'x')];
    assert.deepEqual(kinds(rule('empty_says_all').apply(other)), ['word_loop/fail']);
  });

  it('one_finding_per_kind: the most severe, then the first', () => {
    const r = rule('one_finding_per_kind');
    const a = finding('word_loop', 'warn', 1, 'a');
    const b = finding('word_loop', 'fail', 2, 'b');
    const c = finding('word_loop', 'fail', 3, 'c');
    assert.deepEqual(
      r.apply([a, b, c]).map((f) => f.detail),
      ['b'],
    );
    assert.deepEqual(
      r.apply([a, finding('stutter', 'warn', 0, 's')]).map((f) => f.detail),
      ['a', 's'],
    );
  });

  it('the table runs in order and leaves the input alone', () => {
    const fs = [
      finding('word_loop', 'warn', 40, 'w'),
      finding('word_loop', 'fail', 40, 'l'),
      finding('word_loop', 'fail', 50, 'r'),
      finding('cycling', 'warn', 0, 'c'),
    ];
    const before = JSON.stringify(fs);
    assert.deepEqual(
      applyRules(fs).map((f) => f.detail),
      ['l', 'c'],
    );
    assert.equal(JSON.stringify(fs), before);
  });
});

describe('collapse kind and onset', () => {
  it('the first fail names the collapse', () => {
    assert.equal(collapseFinding([finding('stutter', 'warn', 3, 's'), finding('tag_spam', 'fail', 30, 't')])?.kind, 'tag_spam');
    assert.equal(collapseFinding([finding('stutter', 'warn', 3, 's')]), null);
  });
  it('the onset is the earliest placed fail', () => {
    assert.equal(
      collapseOnset([finding('cycling', 'fail', 900, 'x'), finding('word_salad', 'fail', 300, 'y'), finding('stutter', 'warn', 10, 'z')]),
      300,
    );
    assert.equal(collapseOnset([finding('gibberish', 'fail', -1, 'c')]), -1);
  });
});
