import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentions, scoreRecall, type RecallFact } from '../../src/core/recallScore.js';

const FACTS: RecallFact[] = [
  { label: 'the code word', value: 'COBALT-HERON-4821', position: 'start' },
  { label: 'the contact', value: 'Ottoline Vasquez-Lund', position: 'middle' },
  { label: 'the account', value: '5093172', position: 'end' },
];

test('a fact matches exactly, whatever the case, spacing and punctuation', () => {
  assert.ok(mentions('The code word is cobalt heron 4821.', 'COBALT-HERON-4821'));
  assert.ok(mentions('**OTTOLINE VASQUEZ LUND**', 'Ottoline Vasquez-Lund'));
  assert.ok(mentions('account: 5,093,172', '5093172'));
  assert.ok(!mentions('COBALT-HERON-4812', 'COBALT-HERON-4821'));
  assert.ok(!mentions('Ottoline', 'Ottoline Vasquez-Lund'));
  assert.ok(!mentions('anything', ''));
});

test('all recalled: ok with ratio 1; some: warn; under minRecall: fail, missed listed by position', () => {
  const all = scoreRecall('COBALT-HERON-4821\nOttoline Vasquez-Lund\n5093172', FACTS, 0.5);
  assert.deepEqual([all.verdict, all.ratio, all.missed.length], ['ok', 1, 0]);
  const two = scoreRecall('COBALT-HERON-4821, 5093172', FACTS, 0.5);
  assert.equal(two.verdict, 'warn');
  assert.deepEqual(
    two.missed.map((f) => f.position),
    ['middle'],
  );
  assert.deepEqual(two.byPosition, {
    start: { planted: 1, recalled: 1 },
    middle: { planted: 1, recalled: 0 },
    end: { planted: 1, recalled: 1 },
  });
  const one = scoreRecall('5093172', FACTS, 0.5);
  assert.equal(one.verdict, 'fail');
  assert.equal(one.ratio, 1 / 3);
  // minRecall 0: a partial answer only warns, even with nothing recalled
  assert.equal(scoreRecall('', FACTS, 0).verdict, 'warn');
});
