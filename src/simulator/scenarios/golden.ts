import { lastUserText } from '../messageTexts.js';
import { textSource, type TokenSource } from '../tokenSource.js';
import { generation, type ScenarioDefinition } from './types.js';

/**
 * Scenarios for golden probes: a model that works out each task of the prompt (the golden
 * probe's arithmetic, copy, count, sort and lookup tasks, read back from their words) and one
 * that answers every task wrongly, the build a release switch degrades to
 * (`--release-after N --degrade-to golden-wrong`). A prompt that is no golden task gets a
 * line saying so, without an ANSWER: line.
 */

/** The answer to a golden task, worked out from the prompt's words; null when the prompt is none. */
export function solveGoldenPrompt(prompt: string): string | null {
  const start = /Start with (-?\d+)\./.exec(prompt);
  if (start) {
    let value = Number(start[1]);
    for (const [, op, n] of prompt.matchAll(/(Add|Subtract|Multiply by) (\d+)\./g))
      value = op === 'Add' ? value + Number(n) : op === 'Subtract' ? value - Number(n) : value * Number(n);
    return String(value);
  }
  const copy = /character for character: (\S+)/.exec(prompt);
  if (copy) return copy[1] as string;
  const count = /list of words: ([^.]+)\. How many times does the word "([^"]+)"/.exec(prompt);
  if (count) return String((count[1] as string).split(', ').filter((w) => w === count[2]).length);
  const sort = /smallest to largest: ([\d, ]+)\./.exec(prompt);
  if (sort)
    return (sort[1] as string)
      .split(', ')
      .map(Number)
      .sort((a, b) => a - b)
      .join(', ');
  const lookup = /code of locker (\d+)\?/.exec(prompt);
  if (lookup) return new RegExp(`^Locker ${lookup[1]}: code (\\d+)$`, 'm').exec(prompt)?.[1] ?? null;
  return null;
}

/** A wrong answer of the same shape: a number one off, the last character of a string changed. */
export function wrongAnswer(right: string): string {
  if (/^-?\d+$/.test(right)) return String(Number(right) + 1);
  const last = right.slice(-1);
  return `${right.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`;
}

/** A short worked answer ending in the ANSWER: line, once, then a natural end. */
function answerSource(answer: string | null): TokenSource {
  let given = false;
  return textSource(() => {
    if (given) return null;
    given = true;
    return answer === null
      ? 'This is not a task I can work out.'
      : `Working through the task step by step gives the result.\nANSWER: ${answer}`;
  });
}

export const goldenScenarios: ScenarioDefinition[] = [
  {
    name: 'golden',
    description: "works out a golden probe's task and answers it right (ANSWER: <value> on the last line)",
    param: null,
    run: ({ messages }) => generation(answerSource(solveGoldenPrompt(lastUserText(messages))), null),
  },
  {
    name: 'golden-wrong',
    description:
      "answers every golden probe's task wrongly, in the right form (a number one off, a string with its last character changed)",
    param: null,
    run: ({ messages }) => {
      const right = solveGoldenPrompt(lastUserText(messages));
      return generation(answerSource(right === null ? null : wrongAnswer(right)), null);
    },
  },
];
