import type { GoldenTaskName } from '../../config/probeKindTypes.js';
import { createRng, hashSeed, intBetween, pick, type Rng } from '../../prose/random.js';

/**
 * Golden tasks: each has exactly one right answer, written from a seed, so no dataset is needed
 * and no two runs send the same task. Pure: the seed in, the prompt and its answer out.
 *
 * The prompt always ends with the same instruction (ANSWER_INSTRUCTION), and the answer is read
 * back by readAnswer: the text after the last `ANSWER:` of the content, on its line, with
 * whitespace and markdown emphasis (`*`, `` ` ``, `_`) at both ends removed. Nothing else is
 * normalised: case, inner spaces and punctuation must be exactly the expected value's.
 */

export interface GoldenTask {
  name: GoldenTaskName;
  prompt: string;
  /** The one right answer, as readAnswer must find it. */
  expected: string;
}

export const ANSWER_INSTRUCTION = 'Reply with the answer alone on the last line, in the form ANSWER: <value>.';

/** The task of sample `index` of run `runId`: its kind in turn from `tasks`, its content from the seed, the run and the index. */
export function goldenTask(tasks: readonly GoldenTaskName[], seed: number, runId: string, index: number): GoldenTask {
  if (tasks.length === 0) throw new RangeError('goldenTask: tasks must name at least one task');
  // the run's first kind comes from the seed and the run, so runs of one sample still go through every kind
  const first = hashSeed('golden-first', seed, runId) % tasks.length;
  const name = tasks[(first + index) % tasks.length] as GoldenTaskName;
  return GENERATORS[name](createRng(hashSeed('golden', seed, runId, index)));
}

const GENERATORS: Readonly<Record<GoldenTaskName, (rng: Rng) => GoldenTask>> = {
  arithmetic: arithmeticTask,
  copy: copyTask,
  count: countTask,
  sort: sortTask,
  lookup: lookupTask,
};

/** A chain of 4 to 6 integer operations (add, subtract, multiply by 2 to 9) from a start of 2 to 50. */
function arithmeticTask(rng: Rng): GoldenTask {
  let value = intBetween(rng, 2, 50);
  const steps: string[] = [`Start with ${value}.`];
  const count = intBetween(rng, 4, 6);
  for (let i = 0; i < count; i++) {
    const op = pick(rng, ['add', 'subtract', 'multiply'] as const);
    // keep the numbers small enough to be worked out step by step (multiply only while under 1000)
    if (op === 'multiply' && Math.abs(value) < 1000) {
      const n = intBetween(rng, 2, 9);
      value *= n;
      steps.push(`Multiply by ${n}.`);
    } else if (op === 'subtract') {
      const n = intBetween(rng, 3, 99);
      value -= n;
      steps.push(`Subtract ${n}.`);
    } else {
      const n = intBetween(rng, 3, 99);
      value += n;
      steps.push(`Add ${n}.`);
    }
  }
  return {
    name: 'arithmetic',
    prompt: `Work out this calculation step by step, in the order given. ${steps.join(' ')} What is the result? ${ANSWER_INSTRUCTION}`,
    expected: String(value),
  };
}

/** Letters and digits that no font confuses and no markdown reads as markup. */
const COPY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A random string of 12 to 32 characters to copy back exactly. */
function copyTask(rng: Rng): GoldenTask {
  const length = intBetween(rng, 12, 32);
  let text = '';
  for (let i = 0; i < length; i++) text += pick(rng, [...COPY_ALPHABET]);
  return {
    name: 'copy',
    prompt: `Copy this string of ${length} characters back exactly, character for character: ${text} ${ANSWER_INSTRUCTION}`,
    expected: text,
  };
}

const ITEMS = ['apple', 'pear', 'plum', 'fig', 'lemon', 'cherry', 'grape', 'melon'] as const;

/** A list of 12 to 30 fruits; how many times one of them appears. */
function countTask(rng: Rng): GoldenTask {
  const length = intBetween(rng, 12, 30);
  const items = Array.from({ length }, () => pick(rng, ITEMS));
  const asked = pick(rng, items);
  const expected = items.filter((item) => item === asked).length;
  return {
    name: 'count',
    prompt: `Here is a list of words: ${items.join(', ')}. How many times does the word "${asked}" appear in the list? ${ANSWER_INSTRUCTION}`,
    expected: String(expected),
  };
}

/** 6 to 12 distinct integers from 1 to 999, to sort ascending and write comma-separated. */
function sortTask(rng: Rng): GoldenTask {
  const length = intBetween(rng, 6, 12);
  const numbers = new Set<number>();
  while (numbers.size < length) numbers.add(intBetween(rng, 1, 999));
  const given = [...numbers];
  const sorted = [...given].sort((a, b) => a - b);
  return {
    name: 'sort',
    prompt: `Sort these numbers from smallest to largest: ${given.join(', ')}. Write them separated by a comma and a space. ${ANSWER_INSTRUCTION}`,
    expected: sorted.join(', '),
  };
}

/** 40 to 80 lockers, each with a code; the code of one of them. */
function lookupTask(rng: Rng): GoldenTask {
  const count = intBetween(rng, 40, 80);
  const numbers = new Set<number>();
  while (numbers.size < count) numbers.add(intBetween(rng, 100, 9999));
  const lockers = [...numbers].map((n) => ({ locker: n, code: String(intBetween(rng, 100000, 999999)) }));
  const asked = pick(rng, lockers);
  return {
    name: 'lookup',
    prompt:
      `Here is a list of lockers and their codes.\n${lockers.map((l) => `Locker ${l.locker}: code ${l.code}`).join('\n')}\n` +
      `What is the code of locker ${asked.locker}? ${ANSWER_INSTRUCTION}`,
    expected: asked.code,
  };
}

/** The answer given: after the last `ANSWER:` (any case), to the end of its line, trimmed of whitespace and markdown emphasis; null without one. */
export function readAnswer(content: string): string | null {
  const at = content.toUpperCase().lastIndexOf('ANSWER:');
  if (at < 0) return null;
  const line = content.slice(at + 'ANSWER:'.length).split('\n')[0] ?? '';
  return line.replace(/^[\s*_`]+|[\s*_`]+$/g, '');
}

/** Exact match of the answer given with the expected one. */
export function isCorrect(answered: string | null, expected: string): boolean {
  return answered === expected;
}
