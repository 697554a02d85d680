// The golden tasks: written from the seed alone, the same for the same seed, and each answer
// right, checked here by working the task out again from its prompt's text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GOLDEN_TASKS, type GoldenTaskName } from '../../src/config/probeKindTypes.js';
import { ANSWER_INSTRUCTION, goldenTask, isCorrect, readAnswer } from '../../src/probe/golden/goldenTasks.js';

/** The answer worked out from the prompt's words, as a reader would (no code shared with the generators). */
function solve(name: GoldenTaskName, prompt: string): string {
  switch (name) {
    case 'arithmetic': {
      let value = Number(/Start with (-?\d+)\./.exec(prompt)?.[1]);
      for (const [, op, n] of prompt.matchAll(/(Add|Subtract|Multiply by) (\d+)\./g)) {
        if (op === 'Add') value += Number(n);
        else if (op === 'Subtract') value -= Number(n);
        else value *= Number(n);
      }
      return String(value);
    }
    case 'copy':
      return /character for character: (\S+) /.exec(prompt)?.[1] ?? '';
    case 'count': {
      const list = (/list of words: ([^.]+)\./.exec(prompt)?.[1] ?? '').split(', ');
      const word = /word "([a-z]+)" appear/.exec(prompt)?.[1];
      let n = 0;
      for (const item of list) if (item === word) n++;
      return String(n);
    }
    case 'sort': {
      const numbers = (/smallest to largest: ([\d, ]+)\./.exec(prompt)?.[1] ?? '').split(', ').map(Number);
      // a selection sort, not Array.prototype.sort: another way to the same order
      const out: number[] = [];
      while (numbers.length > 0) {
        let min = 0;
        for (let i = 1; i < numbers.length; i++) if ((numbers[i] as number) < (numbers[min] as number)) min = i;
        out.push(numbers.splice(min, 1)[0] as number);
      }
      return out.join(', ');
    }
    case 'lookup': {
      const locker = /code of locker (\d+)\?/.exec(prompt)?.[1];
      return new RegExp(`^Locker ${locker}: code (\\d+)$`, 'm').exec(prompt)?.[1] ?? '';
    }
  }
}

describe('goldenTask', () => {
  it('writes the same task for the same seed, run and index, and another for another of them', () => {
    const a = goldenTask(GOLDEN_TASKS, 7, 'run-1', 3);
    assert.deepEqual(goldenTask(GOLDEN_TASKS, 7, 'run-1', 3), a);
    assert.notDeepEqual(goldenTask(GOLDEN_TASKS, 8, 'run-1', 3), a);
    assert.notDeepEqual(goldenTask(GOLDEN_TASKS, 7, 'run-2', 3), a);
    assert.notDeepEqual(goldenTask(GOLDEN_TASKS, 7, 'run-1', 4), a);
  });

  it('gives each task its one right answer, worked out again from the prompt', () => {
    for (const name of GOLDEN_TASKS) {
      for (let i = 0; i < 200; i++) {
        const task = goldenTask([name], 1, `run-${i}`, i);
        assert.equal(task.name, name);
        assert.ok(task.prompt.endsWith(ANSWER_INSTRUCTION), task.prompt);
        assert.equal(task.expected, solve(name, task.prompt), task.prompt);
        assert.notEqual(task.expected, '');
      }
    }
  });

  it('asks the tasks in turn, so a run of as many samples as tasks asks each once', () => {
    const names = Array.from({ length: GOLDEN_TASKS.length }, (_, i) => goldenTask(GOLDEN_TASKS, 1, 'r', i).name);
    assert.deepEqual([...names].sort(), [...GOLDEN_TASKS].sort());
    assert.equal(goldenTask(['copy', 'sort'], 1, 'r', 0).name === goldenTask(['copy', 'sort'], 1, 'r', 1).name, false);
  });

  it('never repeats a task verbatim over many runs', () => {
    const prompts = new Set<string>();
    for (let run = 0; run < 500; run++) prompts.add(goldenTask(GOLDEN_TASKS, 1, `run-${run}`, 0).prompt);
    assert.equal(prompts.size, 500);
  });

  it('keeps arithmetic to 4 to 6 operations', () => {
    for (let i = 0; i < 100; i++) {
      const ops = goldenTask(['arithmetic'], 3, 'r', i).prompt.match(/(Add|Subtract|Multiply by) \d+\./g) ?? [];
      assert.ok(ops.length >= 4 && ops.length <= 6, `${ops.length} operations`);
    }
  });

  it('refuses an empty list of tasks', () => {
    assert.throws(() => goldenTask([], 1, 'r', 0), /at least one task/);
  });
});

describe('readAnswer', () => {
  it('reads the value after the last ANSWER:, trimmed of whitespace and markdown emphasis', () => {
    assert.equal(readAnswer('ANSWER: 42'), '42');
    assert.equal(readAnswer('Step 1: ... so ANSWER: 7 is wrong.\nANSWER:   -12  \n'), '-12');
    assert.equal(readAnswer('**ANSWER:** `aB3xY`'), 'aB3xY');
    assert.equal(readAnswer('answer: 5'), '5');
    assert.equal(readAnswer('ANSWER: 3, 9, 12\nThat is all.'), '3, 9, 12');
  });

  it('is null without an ANSWER: and keeps inner text exactly (no case or spacing changes)', () => {
    assert.equal(readAnswer('The result is 42.'), null);
    assert.equal(readAnswer('ANSWER: 3,9,12'), '3,9,12');
    assert.equal(isCorrect(readAnswer('ANSWER: 3,9,12'), '3, 9, 12'), false);
    assert.equal(isCorrect(readAnswer('ANSWER: abc'), 'aBc'), false);
    assert.equal(isCorrect(readAnswer('ANSWER: 42.'), '42'), false);
    assert.equal(isCorrect(null, '42'), false);
  });
});
