/**
 * What a real exporter would have exported over a stretch of past time, as an OpenMetrics file
 * for `promtool tsdb create-blocks-from openmetrics`: the exporter's own ProbeService, analyser
 * and metrics registry run each scheduled probe run at its simulated time, on answers given by
 * a stream function instead of a server, and the registry's exposition is written at every
 * simulated scrape, with that scrape's timestamp. Unlike a real scrape, a series that goes away
 * (a last-value gauge removed after a healthy sample) gets no staleness marker: Prometheus
 * shows its last value for its 5-minute lookback.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Registry } from 'prom-client';
import type { StreamResult } from '../../src/client/streamTypes.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import type { StreamFn } from '../../src/probe/probeDeps.js';
import type { SampleVerdict } from '../../src/probe/probeTypes.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { silentLogger, streamResult, testConfig, testProbe, testTarget } from './testConfig.js';
import { healthyProse } from './texts.js';

export type SimulatedAnswer = 'ok' | 'fail' | 'error';

export interface SimulatedScrapesOptions {
  file: string;
  target: string;
  probe: string;
  /** Unix seconds of the first and the last scrape. */
  startSeconds: number;
  endSeconds: number;
  scrapeIntervalSeconds: number;
  scheduleIntervalSeconds: number;
  /** Unix seconds at which the first run finishes; the next ones follow every schedule interval. */
  firstRunSeconds: number;
  /** What the server answers at run n (0-based), finishing at firstRunSeconds + n × schedule interval. */
  answer: (run: number) => SimulatedAnswer;
  /** Metric family names to write (all when absent): a smaller file, each family as exported. */
  families?: ReadonlySet<string>;
  /**
   * The probe sweeps one temperature, asks for logprobs and has expect.keywords (minCoverage 0,
   * so the day's verdicts do not change): the series of those features exist, as the signal
   * panels need.
   */
  signals?: boolean;
}

export interface SimulatedScrapes {
  scrapes: number;
  /** Each run's finish time and the verdict the exporter gave its sample. */
  runs: { atSeconds: number; verdict: SampleVerdict }[];
  lines: number;
}

/** A small deterministic generator, so the file is the same on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** The stream result the server would have produced for a run's sample. */
function answerFor(kind: SimulatedAnswer, run: number): Partial<StreamResult> {
  const random = prng(run + 7);
  if (kind === 'error') {
    return {
      content: '',
      outputTokens: 0,
      ttftSeconds: null,
      ttfcSeconds: null,
      durationSeconds: 0.01,
      chunks: 0,
      maxGapSeconds: 0,
      gapsSeconds: [],
      endedCleanly: false,
      httpStatus: null,
      finishReason: null,
      error: { type: 'connect', message: 'connect ECONNREFUSED 10.0.0.7:8000' },
    };
  }
  const content =
    kind === 'ok'
      ? healthyProse(700, run + 1)
      : `${healthyProse(250, run + 1)} ${'The scheduler retries the job and the job retries the scheduler. '.repeat(80)}`;
  const outputTokens = Math.ceil(content.length / 4);
  // Smooth decoding with an occasional stall (preemption, a swapped-out request).
  const gaps = Array.from({ length: 60 }, () => 0.015 + random() * 0.03);
  if (run % 5 === 0) gaps.push(1.5 + random() * 4);
  const ttft = 0.15 + random() * 0.6;
  return {
    content,
    outputTokens,
    ttftSeconds: ttft,
    ttfcSeconds: ttft,
    durationSeconds: ttft + outputTokens / (40 + random() * 30),
    chunks: outputTokens,
    maxGapSeconds: Math.max(...gaps),
    gapsSeconds: gaps,
    finishReason: kind === 'ok' ? 'stop' : 'length',
  };
}

interface Family {
  help: string;
  type: string;
  /** OpenMetrics name: a counter's family drops the `_total` its samples keep. */
  name: string;
}

/** Splits a Prometheus text exposition into families: header and sample lines. */
function familiesOf(text: string): Map<string, { family: Family; samples: string[] }> {
  const out = new Map<string, { family: Family; samples: string[] }>();
  let current: { family: Family; samples: string[] } | null = null;
  let help = '';
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const h = /^# HELP (\S+) (.*)$/.exec(line);
    if (h) {
      help = h[2] as string;
      continue;
    }
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) {
      const name = t[1] as string;
      const type = t[2] as string;
      current = { family: { help, type, name: type === 'counter' ? name.replace(/_total$/, '') : name }, samples: [] };
      out.set(name, current);
      continue;
    }
    if (line.startsWith('#')) continue;
    current?.samples.push(line);
  }
  return out;
}

/**
 * Runs the probe on its schedule over [startSeconds, endSeconds] and writes every scrape of the
 * exporter's registry to `file` in OpenMetrics (families not interleaved, `# EOF` at the end).
 */
export async function writeSimulatedScrapes(options: SimulatedScrapesOptions): Promise<SimulatedScrapes> {
  const { target, probe, startSeconds, endSeconds, scrapeIntervalSeconds, scheduleIntervalSeconds } = options;
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 'backfill', defaultMetrics: false });
  let nowMs = startSeconds * 1000;
  let run = 0;
  const stream: StreamFn = async () => {
    const kind = options.answer(run);
    const result = answerFor(kind, run);
    if (options.signals && kind !== 'error') {
      // a loop is locked in (near-certain tail), healthy prose is not
      result.logprobs =
        kind === 'fail'
          ? { tokens: 900, meanLogprob: -0.3, tailTokens: 256, tailMeanLogprob: -0.001, tailNearCertainRatio: 0.99 }
          : { tokens: 900, meanLogprob: -1.3, tailTokens: 256, tailMeanLogprob: -1.2, tailNearCertainRatio: 0.25 };
    }
    return streamResult(result);
  };
  let id = 0;
  const service = new ProbeService({
    config: testConfig({
      targets: [testTarget({ name: target, probes: [probe] })],
      probes: [
        testProbe({
          name: probe,
          maxTokens: 4000,
          minTokens: 200,
          ...(options.signals
            ? {
                temperatures: [0.6],
                logprobs: true,
                expect: { keywords: ['scheduler', 'retry', 'sourdough'], minCoverage: 0, headings: 0 },
              }
            : {}),
        }),
      ],
    }),
    probe: { stream, env: {}, now: () => nowMs, logger: silentLogger, newId: () => `run-${++id}` },
    metrics,
    history: new RunHistory({ maxRuns: 10, maxBytes: 64 * 1024 * 1024 }),
    logger: silentLogger,
  });
  // What the scheduler sets for a cron schedule.
  metrics.scheduleInterval.set({ target, probe }, scheduleIntervalSeconds);

  // The exposition changes only when a run finishes: one snapshot per run, written at every scrape.
  const snapshots: Map<string, { family: Family; samples: string[] }>[] = [];
  const snapshotAt: number[] = [];
  const runs: SimulatedScrapes['runs'] = [];
  const scrapeTimes: number[] = [];
  for (let t = startSeconds; t <= endSeconds; t += scrapeIntervalSeconds) scrapeTimes.push(t);
  snapshots.push(familiesOf(await registry.metrics()));
  for (const t of scrapeTimes) {
    let due = options.firstRunSeconds + run * scheduleIntervalSeconds;
    while (due <= t) {
      nowMs = due * 1000;
      const result = await service.run(target, probe, 'schedule');
      runs.push({ atSeconds: due, verdict: result.verdict });
      run++;
      due = options.firstRunSeconds + run * scheduleIntervalSeconds;
      snapshots.push(familiesOf(await registry.metrics()));
    }
    snapshotAt.push(snapshots.length - 1);
  }

  const out = createWriteStream(options.file);
  let lines = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const names = new Set(snapshots.flatMap((s) => [...s.keys()]));
  for (const name of names) {
    if (options.families && !options.families.has(name)) continue;
    const family = snapshots.findLast((s) => s.has(name))?.get(name)?.family as Family;
    await write(`# HELP ${family.name} ${family.help}\n# TYPE ${family.name} ${family.type}\n`);
    for (const [i, t] of scrapeTimes.entries()) {
      const samples = snapshots[snapshotAt[i] as number]?.get(name)?.samples ?? [];
      if (samples.length === 0) continue;
      await write(samples.map((s) => `${s} ${t}\n`).join(''));
      lines += samples.length;
    }
  }
  await write('# EOF\n');
  out.end();
  await once(out, 'finish');
  return { scrapes: scrapeTimes.length, runs, lines };
}
