import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { closeStreamDispatchers, redactBytes, secretsOf, streamChat } from '../client/streamChat.js';
import { createTargetDispatcher } from '../client/targetDispatcher.js';
import type { Config } from '../config/types.js';
import type { RunResult, SampleResult } from '../probe/probeTypes.js';
import { readKeyFile } from '../probe/readKeyFile.js';
import { runProbe, type StreamFn } from '../probe/runProbe.js';
import type { ProbePair } from './probeFlags.js';
import { describeLive, type ProgressView } from './progressView.js';

export interface OneShotOptions {
  config: Config;
  pairs: readonly ProbePair[];
  env: Record<string, string | undefined>;
  logger: Logger;
  /** Samples streaming at once, all pairs together. */
  concurrency: number;
  view: ProgressView;
  /** Called when a sample ends, with the raw body received (null unless captureRaw). */
  onSample?: (target: string, probe: string, sample: SampleResult, capture: Uint8Array | null) => Promise<void> | void;
  captureRaw: boolean;
  /** A stream client in place of streamChat (tests). */
  stream?: StreamFn;
}

/**
 * Runs every pair once with the daemon's runProbe (dispatchers and key files as the daemon
 * makes them) and resolves to their runs in the order of `pairs`. The stream client is wrapped
 * per pair to feed the progress view (tokens, state) and, with captureRaw, to keep each
 * sample's body as received; runProbe itself is unchanged. Samples of a pair run one after the
 * other (runProbe's rule); `concurrency` bounds samples in flight across pairs.
 */
export async function runOneShot(o: OneShotOptions): Promise<RunResult[]> {
  const dispatchers = new Map<string, Dispatcher>();
  for (const t of o.config.targets) {
    const d = createTargetDispatcher(t.tls, t.timeouts.connectSeconds, (p) => readFileSync(p));
    if (d) dispatchers.set(t.name, d);
  }
  const slots = semaphore(Math.max(1, o.concurrency));
  const base = o.stream ?? ((req, opts) => streamChat(req, opts));
  const pending: Promise<unknown>[] = [];
  try {
    return await Promise.all(
      o.pairs.map(async ({ target: tName, probe: pName }) => {
        const target = o.config.targets.find((t) => t.name === tName)!;
        const probe = o.config.probes.find((p) => p.name === pName)!;
        let capture: Buffer[] = [];
        let captured = 0;
        // the credentials this sample's request carried: never written to disk, even when echoed
        let secrets: string[] = [];
        // Samples started and not yet finished: a contamination probe starts all its requests
        // before it finishes any, and their bytes would share one capture, so then none is saved.
        let unfinished = 0;
        let crowded = false;
        // keyed by the sample's own index: a contamination probe's samples run side by side
        const key = (index: number | undefined) => `${tName}/${pName}/${index ?? 0}`;
        const stream: StreamFn = (req, opts) => {
          capture = []; // a request re-sent in the shape a server asked for starts the capture again
          captured = 0;
          secrets = secretsOf(req.headers);
          const k = key(opts.sample);
          opts.signal?.addEventListener(
            'abort',
            () => {
              // a collapse has already been shown by sampleLive, with its kind and onset
              const reason = opts.signal?.reason as Error | undefined;
              if (reason?.name !== 'CollapseAbort') o.view.state(k, 'aborted');
            },
            { once: true },
          );
          return base(req, {
            ...opts,
            onProgress: (p) => {
              opts.onProgress?.(p);
              o.view.progress(k, p.tokens, p.elapsedSeconds ?? 0);
            },
            ...(o.captureRaw
              ? {
                  onRaw: (b: Uint8Array) => {
                    capture.push(Buffer.from(b));
                    captured += b.byteLength;
                  },
                }
              : {}),
          } as Parameters<StreamFn>[1]);
        };
        return runProbe(
          target,
          probe,
          {
            stream,
            env: o.env,
            now: Date.now,
            logger: o.logger,
            newId: randomUUID,
            readKeyFile,
            dispatcherFor: (t) => dispatchers.get(t.name),
            slots,
            observer: {
              sampleStarted: (_t, _p, index) => {
                if (unfinished++ > 0) crowded = true;
                capture = [];
                captured = 0;
                o.view.started(key(index), tName, pName, index, probe.maxTokens);
              },
              sampleLive: (_t, _p, live) => o.view.state(key(live.sample), describeLive(live)),
              sampleFinished: (_t, _p, sample) => {
                o.view.finished(key(sample.index), tName, pName, sample);
                const body = o.captureRaw && captured > 0 && !crowded ? redactBytes(Buffer.concat(capture), secrets) : null;
                if (--unfinished === 0) crowded = false;
                capture = [];
                if (o.onSample) pending.push(Promise.resolve(o.onSample(tName, pName, sample, body)));
              },
            },
          },
          'manual',
        );
      }),
    );
  } finally {
    await Promise.allSettled(pending);
    o.view.close();
    await Promise.all([...dispatchers.values()].map((d) => d.close()));
    await closeStreamDispatchers();
  }
}

function semaphore(n: number): { acquire(): Promise<() => void> } {
  let free = n;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    acquire() {
      if (free > 0) {
        free--;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => waiting.push(() => resolve(release)));
    },
  };
}
