import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { closeHttpDispatchers, httpExchange, type HttpFn } from '../client/httpExchange.js';
import { closeStreamDispatchers, redactBytes, secretsOf, streamChat } from '../client/streamChat.js';
import { joinSecrets } from '../client/redactSecrets.js';
import { readProxyEnv } from '../client/proxyEnv.js';
import { createTargetDispatcher } from '../client/targetDispatcher.js';
import { readCaFile } from '../config/readCaFile.js';
import type { Config } from '../config/types.js';
import type { ServedBy } from '../client/streamTypes.js';
import type { RunResult, SampleResult } from '../probe/probeTypes.js';
import { configSecrets } from '../probe/configSecrets.js';
import { readKeyFile } from '../probe/readKeyFile.js';
import type { StreamFn } from '../probe/probeDeps.js';
import { runProbe } from '../probe/runProbe.js';
import { identifyTargets, type TargetIdentity } from './identifyTargets.js';
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
  /** A plain client in place of httpExchange (tests). */
  http?: HttpFn;
  /** After the runs, read each target's fingerprint (identifyTargets) for a baseline. */
  identify?: boolean;
}

export interface OneShotResult {
  /** In the order of `pairs`. */
  runs: RunResult[];
  /** With `identify`, by target name: its fingerprint (never missing: a failed read is a line of `unavailable`); else empty. */
  identities: Map<string, TargetIdentity>;
}

/**
 * Runs every pair once with the daemon's runProbe (dispatchers and key files as the daemon
 * makes them) and resolves to their runs in the order of `pairs`. The stream client is wrapped
 * per pair to feed the progress view (tokens, state) and, with captureRaw, to keep each
 * sample's body as received (by sample index, so the side-by-side requests of a contamination
 * probe each get their own); runProbe itself is unchanged. Samples of a pair run one after the
 * other (runProbe's rule); `concurrency` bounds samples in flight across pairs, raised to the
 * widest contamination probe's request count. With `identify`, each target's fingerprint is
 * read once the runs are done, from what its successful responses said and its own endpoints.
 */
export async function runOneShot(o: OneShotOptions): Promise<OneShotResult> {
  const dispatchers = new Map<string, Dispatcher>();
  // the proxy variables as the daemon reads them (probeCommand refused invalid ones before)
  const proxied = readProxyEnv(o.env);
  if (!proxied.ok) throw new RangeError(`proxy settings: ${proxied.error}`);
  for (const t of o.config.targets) {
    const d = createTargetDispatcher(t.tls, t.timeouts.connectSeconds, readCaFile, proxied.proxy);
    if (d) dispatchers.set(t.name, d);
  }
  // A contamination probe's requests must stream together to test anything: they get their
  // slots whatever --concurrency says (pairs still wait for free slots).
  const together = o.pairs.map(({ probe }) => o.config.probes.find((p) => p.name === probe)?.contamination?.concurrency ?? 1);
  const slots = semaphore(Math.max(1, o.concurrency, ...together));
  // Every secret of the configuration, redacted from what each target sends back besides its
  // own (targets behind one origin can echo each other's keys): read once, a run is short.
  const others = await configSecrets(o.config, o.env, readKeyFile);
  const base = o.stream ?? ((req, opts) => streamChat(req, opts));
  const pending: Promise<unknown>[] = [];
  // what the responses say served them, by target: only answers that succeeded (a proxy's error page names the proxy)
  const served = new Map<string, ServedBy[]>();
  const http = o.http ?? httpExchange;
  try {
    const runs = await Promise.all(
      o.pairs.map(async ({ target: tName, probe: pName }) => {
        const target = o.config.targets.find((t) => t.name === tName)!;
        const probe = o.config.probes.find((p) => p.name === pName)!;
        // Each sample's body as received, by sample index: a contamination probe's requests
        // stream side by side, each into its own capture. `secrets`: the credentials that
        // request carried and the configuration's others, never written to disk, even when the
        // server echoes them.
        const captures = new Map<number, { chunks: Buffer[]; bytes: number; secrets: string[] }>();
        const key = (index: number | undefined) => `${tName}/${pName}/${index ?? 0}`;
        const stream: StreamFn = (req, opts) => {
          // a request re-sent in the shape a server asked for starts its sample's capture again
          const capture = { chunks: [] as Buffer[], bytes: 0, secrets: joinSecrets(secretsOf(req.headers), others) };
          captures.set(opts.sample ?? 0, capture);
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
          const result = base(req, {
            ...opts,
            onProgress: (p) => {
              opts.onProgress?.(p);
              o.view.progress(k, p.tokens, p.elapsedSeconds ?? 0);
            },
            ...(o.captureRaw
              ? {
                  onRaw: (b: Uint8Array) => {
                    capture.chunks.push(Buffer.from(b));
                    capture.bytes += b.byteLength;
                  },
                }
              : {}),
          } as Parameters<StreamFn>[1]);
          return result.then((r) => {
            if (r.served && r.httpStatus !== null && r.httpStatus >= 200 && r.httpStatus < 300) {
              const list = served.get(tName) ?? [];
              list.push(r.served);
              served.set(tName, list);
            }
            return r;
          });
        };
        return runProbe(
          target,
          probe,
          {
            stream,
            http,
            env: o.env,
            now: Date.now,
            logger: o.logger,
            newId: randomUUID,
            readKeyFile,
            secrets: async () => others,
            dispatcherFor: (t) => dispatchers.get(t.name),
            slots,
            observer: {
              sampleStarted: (_t, _p, index) => {
                captures.delete(index);
                o.view.started(key(index), tName, pName, index, probe.maxTokens);
              },
              sampleLive: (_t, _p, live) => o.view.state(key(live.sample), describeLive(live)),
              // a checklist is one sample: its live line says how far the checks got
              checkDone: (_t, _p, c) =>
                o.view.state(key(0), `checked ${c.check}: ${c.status}${c.status === 'pass' ? '' : ` (${c.reason})`}`),
              sampleFinished: (_t, _p, sample) => {
                o.view.finished(key(sample.index), tName, pName, sample);
                const capture = captures.get(sample.index);
                captures.delete(sample.index);
                const body = capture && capture.bytes > 0 ? redactBytes(Buffer.concat(capture.chunks), capture.secrets) : null;
                if (o.onSample) pending.push(Promise.resolve(o.onSample(tName, pName, sample, body)));
              },
            },
          },
          'manual',
        );
      }),
    );
    const names = new Set(o.pairs.map((p) => p.target));
    const identities = o.identify
      ? await identifyTargets(
          o.config.targets.filter((t) => names.has(t.name)),
          served,
          { http, env: o.env, readKeyFile, secrets: others, dispatcherFor: (t) => dispatchers.get(t.name) },
        )
      : new Map<string, TargetIdentity>();
    return { runs, identities };
  } finally {
    await Promise.allSettled(pending);
    o.view.close();
    await Promise.all([...dispatchers.values()].map((d) => d.close()));
    await closeStreamDispatchers();
    await closeHttpDispatchers();
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
