import { DEFAULTS } from '../../config/defaults.js';
import type { ProbeConfig } from '../../config/types.js';
import { compactText } from '../../core/recallScore.js';
import { createRng, hashSeed } from '../../prose/random.js';
import { CONTAMINATION_TOPICS, codeWord } from '../conversation/words.js';
import type { SampleResult } from '../probeTypes.js';
import type { ProbeKindModule } from '../probeDeps.js';
import { runSample } from '../runSample.js';
import { excerptAt, type KindFinding, withJudgement } from './withJudgement.js';
import { runSamples } from './runSamples.js';

/** What a contamination sample carries: one of the simultaneous requests. */
export interface ContaminationOutcome {
  /** This request's number in its round (1-based, as findings name it). */
  request: number;
  topic: string;
  codeWord: string;
  /** Its own code word was in its answer. */
  ownCodeWord: boolean;
  /** Numbers of the other requests whose code words its answer held (empty: none, the healthy case). */
  leakedFrom: number[];
}

declare module '../probeTypes.js' {
  interface ProbeKindSamples {
    contamination: { outcome: ContaminationOutcome; findingKinds: 'contamination' | 'codeword_missing' };
  }
}

/** One of a round's simultaneous requests. */
export interface ContaminationRequest {
  topic: string;
  codeWord: string;
  prompt: string;
}

/** `count` requests with distinct topics and code words, from the seed, the run id and the round. */
export function contaminationRequests(count: number, seed: number, runId: string, round: number): ContaminationRequest[] {
  const rng = createRng(hashSeed('contamination', seed, runId, round));
  const topics = [...CONTAMINATION_TOPICS];
  const words = new Set<string>();
  const out: ContaminationRequest[] = [];
  for (let i = 0; i < count; i++) {
    const topic = topics.splice(Math.floor(rng() * topics.length), 1)[0] ?? `topic number ${i + 1}`;
    let word: string;
    do word = codeWord(rng);
    while (words.has(word));
    words.add(word);
    out.push({
      topic,
      codeWord: word,
      prompt: `Write one short paragraph about ${topic}. Begin your answer with the code word ${word} on a line of its own.`,
    });
  }
  return out;
}

/**
 * kind: contamination. Each round sends `concurrency` requests at once, each with its own topic
 * and code word; every answer must hold its own code word and none of the others'. An answer
 * with another request's code word fails with a `contamination` finding naming both requests
 * (context bled between requests: a shared KV cache, a mixed-up batch); one without its own
 * code word warns (`codeword_missing`). `samples` is the number of rounds.
 */
export const contaminationKind: ProbeKindModule<'contamination'> = {
  name: 'contamination',
  findingKinds: ['contamination', 'codeword_missing'],
  samplesPerRun: (probe) => probe.samples,
  run: (target, probe, deps, trigger) =>
    runSamples(target, probe, deps, trigger, async (run) => {
      const settings = probe.contamination ?? DEFAULTS.probeKinds.contamination;
      const n = settings.concurrency;
      for (let round = 0; round < probe.samples && !deps.signal?.aborted; round++) {
        const requests = contaminationRequests(n, settings.seed, run.id, round);
        let inFlight = 0;
        let mostInFlight = 0;
        const answers = await Promise.all(
          requests.map((request, i) => {
            const index = round * n + i;
            const asked: ProbeConfig = { ...probe, messages: [{ role: 'user', content: request.prompt }], minTokens: 0 };
            // each request takes its own slot: with server.maxConcurrentSamples under N they overlap less (noted below)
            return run.sample(index, async () => {
              mostInFlight = Math.max(mostInFlight, ++inFlight);
              try {
                return await runSample(target, asked, deps, index);
              } finally {
                inFlight--;
              }
            });
          }),
        );
        for (const sample of judgeContamination(requests, answers, mostInFlight)) if (sample) run.finish(sample);
      }
    }),
};

/** Cross-checks the answers of one round (null: not sent), each answer with its judgement added. Pure. */
export function judgeContamination(
  requests: readonly ContaminationRequest[],
  answers: ReadonlyArray<SampleResult | null>,
  mostInFlight: number,
): Array<SampleResult | null> {
  const compact = requests.map((r) => compactText(r.codeWord));
  const notes =
    mostInFlight < requests.length
      ? [
          `at most ${mostInFlight} of the ${requests.length} requests were in flight together (server.maxConcurrentSamples or other runs held the slots)`,
        ]
      : [];
  return answers.map((sample, i) => {
    if (!sample) return null;
    const request = requests[i] as ContaminationRequest;
    const answer = compactText(sample.content);
    const leakedFrom = compact.flatMap((word, j) => (j !== i && answer.includes(word) ? [j + 1] : []));
    const ownCodeWord = answer.includes(compact[i] as string);
    const outcome = {
      kind: 'contamination' as const,
      request: i + 1,
      topic: request.topic,
      codeWord: request.codeWord,
      ownCodeWord,
      leakedFrom,
    };
    if (sample.verdict === 'error') return withJudgement(sample, { outcome, notes });
    const findings: KindFinding[] = leakedFrom.map((j) => {
      const other = requests[j - 1] as ContaminationRequest;
      const at = sample.content.toLowerCase().indexOf(other.codeWord.toLowerCase());
      return {
        kind: 'contamination',
        severity: 'fail',
        atChar: at,
        excerpt: excerptAt(sample.content, at),
        detail: `request ${j}'s code word ${other.codeWord} (topic: ${other.topic}) appeared in the answer to request ${i + 1} (topic: ${request.topic})`,
      };
    });
    if (!ownCodeWord) {
      findings.push({
        kind: 'codeword_missing',
        severity: 'warn',
        atChar: -1,
        detail: `the answer to request ${i + 1} lacks its own code word ${request.codeWord}`,
      });
    }
    return withJudgement(sample, { outcome, findings, notes });
  });
}
