import { DEFAULTS } from '../../config/defaults.js';
import type { RecallPosition } from '../../config/probeKindTypes.js';
import { scoreRecall } from '../../core/recallScore.js';
import { buildConversation, type Conversation } from '../conversation/buildConversation.js';
import type { SampleOutcome, SampleResult } from '../probeTypes.js';
import type { ProbeConfig } from '../../config/types.js';
import type { ProbeKindModule } from '../probeDeps.js';
import { runSample } from '../runSample.js';
import { withJudgement } from './withJudgement.js';
import { runSamples } from './runSamples.js';

/** What a recall sample carries besides the usual fields (shown in /runs, never as labels). */
export interface RecallOutcome {
  /** Recalled facts / planted facts, 0-1. */
  ratio: number;
  /** The probe's minRecall: under it the sample fails. */
  minRecall: number;
  facts: number;
  recalled: number;
  /** Estimated prompt tokens of the conversation sent. */
  conversationTokens: number;
  byPosition: Partial<Record<RecallPosition, { planted: number; recalled: number }>>;
  /** The facts the answer lacked, with where they were planted. */
  missed: { position: RecallPosition; label: string; value: string }[];
}

declare module '../probeTypes.js' {
  interface ProbeKindSamples {
    recall: { outcome: RecallOutcome; findingKinds: 'recall_missed' };
  }
}

/**
 * kind: recall. Sends a long conversation built from the probe's seed, with facts planted at
 * the chosen positions, and scores the answer to the last turn (which asks for them) by exact
 * match of each fact. Each sample sends the same conversation; the answer is also analysed
 * for collapse like any generation.
 */
export const recallKind: ProbeKindModule<'recall'> = {
  name: 'recall',
  findingKinds: ['recall_missed'],
  samplesPerRun: (probe) => probe.samples,
  run: (target, probe, deps, trigger) =>
    runSamples(target, probe, deps, trigger, async (run) => {
      const settings = probe.recall ?? { ...DEFAULTS.probeKinds.recall, positions: [...DEFAULTS.probeKinds.recall.positions] };
      const conversation = conversationFor(settings);
      // minTokens is for long generations: a recall answer is a few lines
      const asked: ProbeConfig = { ...probe, messages: conversation.messages, minTokens: 0 };
      for (let index = 0; index < probe.samples; index++) {
        const sample = await run.sample(index, () => runSample(target, asked, deps, index));
        if (!sample) break;
        run.finish(judgeRecall(sample, conversation, settings.minRecall));
      }
    }),
};

/** Conversations built lately, by settings: a 120k-token one takes about half a second to write, the same every run. */
const built = new Map<string, Conversation>();
const BUILT_KEPT = 8;

function conversationFor(settings: Parameters<typeof buildConversation>[0]): Conversation {
  const key = JSON.stringify([settings.conversationTokens, settings.facts, settings.positions, settings.seed]);
  let conversation = built.get(key);
  if (!conversation) {
    conversation = buildConversation(settings);
    if (built.size >= BUILT_KEPT) built.delete(built.keys().next().value as string);
    built.set(key, conversation);
  }
  return conversation;
}

/** The sample with its answer scored (an errored sample as it is), and a recall_missed finding when facts are missing. */
export function judgeRecall(sample: SampleResult, conversation: Conversation, minRecall: number): SampleResult {
  if (sample.verdict === 'error') return sample;
  const score = scoreRecall(sample.content, conversation.facts, minRecall);
  const outcome: SampleOutcome = {
    kind: 'recall',
    ratio: score.ratio,
    minRecall,
    facts: score.facts,
    recalled: score.recalled,
    conversationTokens: conversation.tokens,
    byPosition: score.byPosition,
    missed: score.missed.map((f) => ({ position: f.position, label: f.label, value: f.value })),
  };
  if (score.verdict === 'ok') return withJudgement(sample, { outcome });
  const where = (['start', 'middle', 'end'] as const)
    .map((pos) => [pos, score.missed.filter((f) => f.position === pos).length] as const)
    .filter(([, n]) => n > 0)
    .map(([pos, n]) => `${n} at the ${pos}`)
    .join(', ');
  return withJudgement(sample, {
    outcome,
    findings: [
      {
        kind: 'recall_missed',
        severity: score.verdict,
        atChar: -1,
        detail:
          `recalled ${score.recalled} of ${score.facts} facts planted in a ${conversation.tokens}-token conversation (${where} missed)` +
          (score.verdict === 'fail' ? `, under minRecall ${minRecall}` : ''),
      },
    ],
  });
}
