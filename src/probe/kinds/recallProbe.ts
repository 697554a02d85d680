import { DEFAULTS } from '../../config/defaults.js';
import type { ProbeConfig, TargetConfig } from '../../config/types.js';
import { scoreRecall } from '../../core/recallScore.js';
import { buildConversation, type Conversation } from '../conversation/buildConversation.js';
import type { RunResult, SampleResult } from '../probeTypes.js';
import { runSample } from '../generationProbe.js';
import type { ProbeDeps } from '../probeDeps.js';
import { addFinding, beginRun, finishSample, guarded, runResult, startSample } from './sampleSteps.js';

/**
 * kind: recall. Sends a long conversation built from the probe's seed, with facts planted at
 * the chosen positions, and scores the answer to the last turn (which asks for them) by exact
 * match of each fact. Each sample sends the same conversation; the answer is also analysed
 * for collapse like any generation.
 */
export async function runRecallProbe(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  trigger: RunResult['trigger'] = 'schedule',
): Promise<RunResult> {
  const { startedMs, id, log } = beginRun(target, probe, deps);
  const settings = probe.recall ?? { ...DEFAULTS.probeKinds.recall, positions: [...DEFAULTS.probeKinds.recall.positions] };
  const conversation = conversationFor(settings);
  // minTokens is for long generations: a recall answer is a few lines
  const asked: ProbeConfig = { ...probe, messages: conversation.messages, minTokens: 0 };
  const samples: SampleResult[] = [];
  for (let index = 0; index < probe.samples; index++) {
    const release = await startSample(target, probe, deps, index);
    if (!release) break;
    let sample: SampleResult;
    try {
      sample = await guarded(index, log, () => runSample(target, asked, deps, index));
    } finally {
      release();
    }
    judgeRecall(sample, conversation, settings.minRecall);
    finishSample(target, probe, deps, log, sample);
    samples.push(sample);
  }
  return runResult(id, target, probe, trigger, startedMs, deps, samples);
}

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

/** Scores the answer of a sample that has one, and adds a recall_missed finding when facts are missing. */
export function judgeRecall(sample: SampleResult, conversation: Conversation, minRecall: number): void {
  if (sample.verdict === 'error') return;
  const score = scoreRecall(sample.content, conversation.facts, minRecall);
  sample.recall = {
    ratio: score.ratio,
    minRecall,
    facts: score.facts,
    recalled: score.recalled,
    conversationTokens: conversation.tokens,
    byPosition: score.byPosition,
    missed: score.missed.map((f) => ({ position: f.position, label: f.label, value: f.value })),
  };
  if (score.verdict === 'ok') return;
  const where = (['start', 'middle', 'end'] as const)
    .map((pos) => [pos, score.missed.filter((f) => f.position === pos).length] as const)
    .filter(([, n]) => n > 0)
    .map(([pos, n]) => `${n} at the ${pos}`)
    .join(', ');
  addFinding(sample, {
    kind: 'recall_missed',
    severity: score.verdict,
    atChar: -1,
    detail:
      `recalled ${score.recalled} of ${score.facts} facts planted in a ${conversation.tokens}-token conversation (${where} missed)` +
      (score.verdict === 'fail' ? `, under minRecall ${minRecall}` : ''),
  });
}
