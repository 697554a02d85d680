import { pino } from 'pino';
import { closeHttpDispatchers, httpExchange } from '../src/client/httpExchange.js';
import { DEFAULTS } from '../src/config/defaults.js';
import type { ProbeConfig, TargetConfig } from '../src/config/types.js';
import { createCheckContext } from '../src/probe/conformance/checkContext.js';
import { checkStreaming, FIRST_CONTENT_MAX_RATIO, LATE_CONTENT_MAX_RATIO } from '../src/probe/conformance/streaming.js';
import { startSimulator } from '../src/simulator/index.js';

/**
 * Where the thresholds of the streaming check come from: the check's own two figures (share of
 * the text in the last 10% of the stream, first text over total time) on healthy simulator
 * streams at several rates, for a plain and a reasoning model, beside the same streams behind
 * the simulator's buffering proxy. `npm run bench -- streamspread [RUNS]` (default 20 a cell).
 */

const RATES = [250, 1000, 2000, 4000];
const MODELS = ['healthy', 'reasoning'];

function target(baseUrl: string, model: string): TargetConfig {
  return {
    name: 'bench',
    baseUrl,
    model,
    api: 'chat',
    apiKeyEnv: null,
    apiKeyFile: null,
    headers: {},
    probes: [],
    timeouts: { connectSeconds: 5, idleSeconds: 30, totalSeconds: 60 },
    tls: { caFile: null, insecureSkipVerify: false },
    maxTokensField: null,
    omit: [],
    modelAliases: [],
    reasoning: null,
    fingerprintReads: true,
  };
}

const maxTokens = DEFAULTS.envFallback.probes[2].maxTokens;
const probe: ProbeConfig = {
  ...DEFAULTS.probe,
  name: 'bench',
  messages: [],
  maxTokens,
  thresholds: {},
  timeouts: {},
  extraBody: {},
  temperatures: null,
  expect: null,
  kind: 'conformance',
};

interface Cell {
  late: number[];
  first: number[];
  judged: number;
}

async function measure(baseUrl: string, model: string, runs: number): Promise<Cell> {
  const cell: Cell = { late: [], first: [], judged: 0 };
  const deps = {
    stream: async () => Promise.reject(new Error('unused')),
    env: {},
    now: Date.now,
    logger: pino({ level: 'silent' }),
    newId: () => 'b',
  };
  for (let i = 0; i < runs; i++) {
    const ctx = createCheckContext(target(baseUrl, model), probe, deps, httpExchange, null, undefined);
    const v = await checkStreaming(ctx);
    const late = v.evidence['lateContentRatio'];
    const first = v.evidence['firstContentRatio'];
    if (v.evidence['spreadJudged'] === true) cell.judged++;
    if (typeof late === 'number' && typeof first === 'number') {
      cell.late.push(late);
      cell.first.push(first);
    }
  }
  return cell;
}

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => (s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN).toFixed(3);
  return `${at(0)} ${at(0.5)} ${at(1)}`.padEnd(18);
};

export async function runStreamSpreadBench(args: string[] = []): Promise<void> {
  const runs = Number(args[0] ?? 20);
  console.log(`streaming check figures, ${runs} streams a cell, maxTokens ${maxTokens} (min median max):`);
  console.log('tok/s  model      stream    late share in last 10%  first text / total  judged');
  const worst = { late: 0, first: 0 };
  const buffered = { late: 1, first: 1 };
  for (const rate of RATES) {
    const sim = await startSimulator({ tokensPerSecond: rate });
    try {
      for (const model of MODELS) {
        for (const defect of ['', 'buffered']) {
          const base = defect ? sim.url.replace(/\/v1$/, `/defect/${defect}/v1`) : sim.url;
          const c = await measure(base, model, runs);
          if (defect === '') {
            worst.late = Math.max(worst.late, ...c.late);
            worst.first = Math.max(worst.first, ...c.first);
          } else {
            buffered.late = Math.min(buffered.late, ...c.late);
            buffered.first = Math.min(buffered.first, ...c.first);
          }
          console.log(
            `${String(rate).padStart(5)}  ${model.padEnd(9)}  ${(defect || 'healthy').padEnd(8)}  ${fmt(c.late).padEnd(22)}  ${fmt(c.first)}  ${c.judged}/${runs}`,
          );
        }
      }
    } finally {
      await sim.close();
    }
  }
  await closeHttpDispatchers();
  console.log(
    `healthy maxima: late ${worst.late.toFixed(3)}, first ${worst.first.toFixed(3)}; buffered minima: late ${buffered.late.toFixed(3)}, first ${buffered.first.toFixed(3)}; thresholds ${LATE_CONTENT_MAX_RATIO} and ${FIRST_CONTENT_MAX_RATIO}`,
  );
}
