import { DEFAULTS } from '../../config/defaults.js';
import type { ProbeConfig, TargetConfig } from '../../config/types.js';
import { compactText } from '../../core/recallScore.js';
import { createRng, hashSeed } from '../../prose/random.js';
import { CONTAMINATION_TOPICS, codeWord } from '../conversation/words.js';
import type { RunResult, SampleResult } from '../probeTypes.js';
import { runSample } from '../generationProbe.js';
import type { ProbeDeps } from '../probeDeps.js';
import { addFinding, beginRun, excerptAt, finishSample, guarded, runResult, startSample } from './sampleSteps.js';

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
export async function runContaminationProbe(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  trigger: RunResult['trigger'] = 'schedule',
): Promise<RunResult> {
  const { startedMs, id, log } = beginRun(target, probe, deps);
  const settings = probe.contamination ?? DEFAULTS.probeKinds.contamination;
  const n = settings.concurrency;
  const samples: SampleResult[] = [];
  for (let round = 0; round < probe.samples && !deps.signal?.aborted; round++) {
    const requests = contaminationRequests(n, settings.seed, id, round);
    let inFlight = 0;
    let mostInFlight = 0;
    const answers = await Promise.all(
      requests.map(async (request, i) => {
        const index = round * n + i;
        // each request takes its own slot: with server.maxConcurrentSamples under N they overlap less (noted below)
        const release = await startSample(target, probe, deps, index);
        if (!release) return null;
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          const asked: ProbeConfig = { ...probe, messages: [{ role: 'user', content: request.prompt }], minTokens: 0 };
          return await guarded(index, log, () => runSample(target, asked, deps, index));
        } finally {
          inFlight--;
          release();
        }
      }),
    );
    judgeContamination(requests, answers, mostInFlight);
    for (const sample of answers) {
      if (!sample) continue;
      finishSample(target, probe, deps, log, sample);
      samples.push(sample);
    }
  }
  return runResult(id, target, probe, trigger, startedMs, deps, samples);
}

/** Cross-checks the answers of one round (null: not sent). Pure apart from filling in the samples. */
export function judgeContamination(
  requests: readonly ContaminationRequest[],
  answers: ReadonlyArray<SampleResult | null>,
  mostInFlight: number,
): void {
  const compact = requests.map((r) => compactText(r.codeWord));
  answers.forEach((sample, i) => {
    if (!sample) return;
    const request = requests[i] as ContaminationRequest;
    const answer = compactText(sample.content);
    const leakedFrom = compact.flatMap((word, j) => (j !== i && answer.includes(word) ? [j + 1] : []));
    const ownCodeWord = answer.includes(compact[i] as string);
    sample.contamination = { request: i + 1, topic: request.topic, codeWord: request.codeWord, ownCodeWord, leakedFrom };
    if (mostInFlight < requests.length) {
      sample.notes.push(
        `at most ${mostInFlight} of the ${requests.length} requests were in flight together (server.maxConcurrentSamples or other runs held the slots)`,
      );
    }
    if (sample.verdict === 'error') return;
    for (const j of leakedFrom) {
      const other = requests[j - 1] as ContaminationRequest;
      const at = sample.content.toLowerCase().indexOf(other.codeWord.toLowerCase());
      addFinding(sample, {
        kind: 'contamination',
        severity: 'fail',
        atChar: at,
        excerpt: excerptAt(sample.content, at),
        detail: `request ${j}'s code word ${other.codeWord} (topic: ${other.topic}) appeared in the answer to request ${i + 1} (topic: ${request.topic})`,
      });
    }
    if (!ownCodeWord) {
      addFinding(sample, {
        kind: 'codeword_missing',
        severity: 'warn',
        atChar: -1,
        detail: `the answer to request ${i + 1} lacks its own code word ${request.codeWord}`,
      });
    }
  });
}
