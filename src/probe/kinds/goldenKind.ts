import { DEFAULTS } from '../../config/defaults.js';
import type { GoldenTaskName } from '../../config/probeKindTypes.js';
import type { ProbeConfig } from '../../config/types.js';
import { type GoldenTask, goldenTask, isCorrect, readAnswer } from '../golden/goldenTasks.js';
import type { SampleResult } from '../probeTypes.js';
import type { ProbeKindModule } from '../probeDeps.js';
import { runSample } from '../runSample.js';
import { withJudgement } from './withJudgement.js';
import { runSamples } from './runSamples.js';

/** What a golden sample carries: the task, its one right answer and the answer given. */
export interface GoldenOutcome {
  task: GoldenTaskName;
  expected: string;
  /** What followed the last `ANSWER:` of the content, normalised (goldenTasks.ts readAnswer); null without one. */
  answered: string | null;
  correct: boolean;
}

declare module '../probeTypes.js' {
  interface ProbeKindSamples {
    golden: { outcome: GoldenOutcome; findingKinds: 'golden_wrong' };
  }
}

/**
 * kind: golden. Each sample asks one task with exactly one right answer (a chain of integer
 * operations, a random string to copy back, items to count or sort, a code to look up), written
 * from the probe's seed, the run id and the sample's index, so no two runs send the same task.
 * The answer is checked exactly. A wrong one is a `golden_wrong` finding of severity warn: the
 * sample is visible, but no failed sample (degeneration's ratio and alerts count failed ones
 * only); what tells a drop in accuracy is the share of correct answers over time
 * (coherency_golden_answers_total, CoherencyGoldenAccuracyDropped). The answer is also analysed
 * for collapse like any generation.
 */
export const goldenKind: ProbeKindModule<'golden'> = {
  name: 'golden',
  findingKinds: ['golden_wrong'],
  samplesPerRun: (probe) => probe.samples * (probe.temperatures?.length ?? 1),
  run: (target, probe, deps, trigger) =>
    runSamples(target, probe, deps, trigger, async (run) => {
      const settings = probe.golden ?? DEFAULTS.probeKinds.golden;
      const temperatures = probe.temperatures ?? [probe.temperature];
      let index = 0;
      for (let i = 0; i < probe.samples; i++) {
        const task = goldenTask(settings.tasks, settings.seed, run.id, i);
        for (const temperature of temperatures) {
          // minTokens is for long generations: an answer is a line or a few
          const asked: ProbeConfig = { ...probe, messages: [{ role: 'user', content: task.prompt }], minTokens: 0, temperature };
          const at = index++;
          const sample = await run.sample(at, () => runSample(target, asked, deps, at));
          if (!sample) return;
          // a sample that crashed before it was judged still says the temperature it was asked at
          run.finish(judgeGolden(sample.temperature === undefined ? { ...sample, temperature } : sample, task));
        }
      }
    }),
};

/** The sample with its answer checked (an errored sample as it is), and a golden_wrong finding when it is not the expected one. */
export function judgeGolden(sample: SampleResult, task: GoldenTask): SampleResult {
  if (sample.verdict === 'error') return sample;
  const answered = readAnswer(sample.content);
  const correct = isCorrect(answered, task.expected);
  const outcome = { kind: 'golden' as const, task: task.name, expected: task.expected, answered, correct };
  if (correct) return withJudgement(sample, { outcome });
  return withJudgement(sample, {
    outcome,
    findings: [
      {
        kind: 'golden_wrong',
        severity: 'warn',
        atChar: -1,
        detail:
          answered === null
            ? `${task.name} task: no ANSWER: line (expected ${clip(task.expected)})`
            : `${task.name} task: answered ${clip(answered)}, expected ${clip(task.expected)}`,
      },
    ],
  });
}

/** A value as a finding shows it: quoted, at most 60 characters. */
function clip(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
}
