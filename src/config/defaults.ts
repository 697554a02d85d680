import { CONFORMANCE_CHECKS, GOLDEN_TASKS } from './probeKindNames.js';

/**
 * Every config default and limit in one place. The validator, the env fallback,
 * the shipped YAML files and docs/configuration.md all follow this object; change a value here
 * and nowhere else.
 */

const SHORT_PROMPT =
  'Explain, in about 300 words of plain prose, how a hash table resolves collisions. ' +
  'Compare separate chaining with open addressing and say when each is the better choice.';

// A long, open-ended article: enough distinct subtopics that a healthy model keeps
// producing new text for several thousand tokens, which is where collapse shows up.
const LONG_PROMPT =
  'Write a detailed technical article of at least 6000 words titled ' +
  '"Building a reliable distributed job scheduler". Use numbered section headings and cover, ' +
  'in this order: the problem and its requirements; leader election and its failure modes; ' +
  'storing job state durably; exactly-once versus at-least-once execution; clock skew and ' +
  'time zones; retries, backoff and dead-letter queues; rate limiting and fairness between ' +
  'tenants; observability (metrics, logs, traces); upgrading without downtime; capacity ' +
  'planning; security; and a closing section of lessons learned from production incidents. ' +
  'Give each section several paragraphs with concrete examples, trade-offs and small code ' +
  'sketches. Do not repeat earlier sections and do not stop before the closing section.';

export const DEFAULTS = {
  server: {
    host: '127.0.0.1',
    port: 9464,
    authToken: null,
    metricsAuth: false,
    maxConcurrentManualRuns: 4,
    // Samples streaming at once, all targets together; more wait for a slot. A sample costs
    // CPU in proportion to its token rate: 16 streams of a fast server (2,000 tokens/s each)
    // keep the event loop of a 2-core pod under 100 ms; slow endpoints can afford more.
    maxConcurrentSamples: 16,
    // null: localhost, the machine's host name and the listen address (IP addresses always pass).
    allowedHosts: null,
    trustProxy: [],
  },
  /** Read when server.authToken is absent from the file (the file value wins). */
  authTokenEnv: 'COHERENCY_AUTH_TOKEN',
  /** Read when storage.dir is absent from the file (the file value wins): the container image sets it to its volume. */
  storageDirEnv: 'COHERENCY_STORAGE_DIR',
  storage: {
    // Relative to the working directory, as Prometheus's data/: failing runs outlive a restart
    // without any setup. null in the file keeps them in memory only.
    dir: 'data/runs' as string | null,
    maxRuns: 500,
    maxBytes: 268435456, // 256 MiB
    historySize: 200,
    historyMaxBytes: 67108864, // 64 MiB
  },
  simulator: {
    enabled: false,
    host: '127.0.0.1',
    port: 8089,
    tokensPerSecond: 2000,
  },
  metrics: {
    degenerationWindow: 20,
    detail: 'basic',
  },
  /**
   * OpenTelemetry export (docs/otel.md): off until an endpoint is given, in the file or by
   * OTEL_EXPORTER_OTLP_ENDPOINT. The queue holds a few minutes of events of a busy daemon
   * (a sample makes one event and one per finding); past it they are dropped and counted.
   */
  otlp: {
    endpoint: null,
    headers: null,
    metrics: false,
    timeoutSeconds: 10,
    maxQueueSize: 2048,
    exportIntervalSeconds: 5,
    serviceName: 'coherency-exporter',
  },
  target: {
    // The API every OpenAI-compatible server speaks; completions and responses are asked for by name.
    api: 'chat' as 'chat' | 'completions' | 'responses',
    apiKeyEnv: null,
    apiKeyFile: null,
    headers: {},
    // Long generations (10k tokens on a slow server) need a generous total; the idle
    // timeout is what catches a stream that stalls mid-way.
    timeouts: {
      connectSeconds: 10,
      idleSeconds: 60,
      totalSeconds: 1800,
      // A window of the minimum output rate (client/outputRate.ts, which gives the floor's why).
      slowSeconds: 60,
    },
    tls: {
      caFile: null,
      insecureSkipVerify: false,
    },
    maxTokensField: null,
    omit: [],
    modelAliases: [],
    reasoning: null,
    // On: a change of server, version or checkpoint is seen even when the answers do not name it.
    fingerprintReads: true,
  },
  probe: {
    schedule: null,
    // Non-zero on purpose: greedy decoding (0) loops on its own on many models, so
    // 0.6, the usual recommended sampling temperature, avoids false alarms.
    temperature: 0.6,
    samples: 1,
    minTokens: 0,
    thresholds: {},
    // The rules decide by default: out of fold on the real development texts the learned model adds nothing to them (docs/detection.md).
    verdict: 'rules' as 'rules' | 'learned',
    verdictModel: null,
    timeouts: {},
    extraBody: {},
    // Once a loop is certain, the rest of maxTokens only costs GPU time and delays the verdict.
    abortOnCollapse: true,
    // A first run soon after start (spread over the first minute): a daemon just pointed at a
    // server shows a verdict in a minute, not after the first tick of a 30-minute schedule.
    runOnStart: true,
    // null: the cap on one response is scaled from maxTokens (1 KiB a token, 8 MiB at least)
    maxResponseBytes: null,
    temperatures: null,
    expect: null,
    logprobs: false,
  },
  limits: {
    portMin: 0,
    portMax: 65535,
    degenerationWindowMin: 1,
    degenerationWindowMax: 1000,
    temperatureMin: 0,
    temperatureMax: 2,
    samplesMax: 20,
    // Short tokens are guessable; 16 characters is the floor, 32+ random ones are better.
    authTokenMinLength: 16,
    maxConcurrentManualRunsMin: 1,
    maxConcurrentManualRunsMax: 100,
    maxConcurrentSamplesMin: 1,
    maxConcurrentSamplesMax: 1000,
    historySizeMin: 1,
    historySizeMax: 10000,
    historyMaxBytesMin: 1048576, // 1 MiB
    historyMaxBytesMax: 17179869184, // 16 GiB
    otlpMaxQueueSizeMax: 1000000,
  },
  /** Relative to the working directory; the packaged copy is used when it is absent there. */
  configPath: 'config/coherency.yaml',
  /**
   * Where `serve --demo` finds the demo (a built-in simulator and targets on it), under the
   * package: config/demo.yaml in the container image, which leaves config/coherency.yaml to
   * the config you mount, else config/coherency.yaml of a checkout or an installed package.
   */
  demoConfigPaths: ['config/demo.yaml', 'config/coherency.yaml'],
  /** What configFromEnv builds when only OPENAI_* variables are given. */
  envFallback: {
    targetName: 'openai',
    probes: [
      {
        name: 'short',
        schedule: '*/5 * * * *',
        prompt: SHORT_PROMPT,
        maxTokens: 512,
      },
      {
        name: 'long',
        schedule: '*/30 * * * *',
        prompt: LONG_PROMPT,
        maxTokens: 8000,
        minTokens: 1500,
      },
      {
        // Whether the endpoint (and any proxy in front of it) still speaks the API correctly:
        // a few short requests, once a day (src/probe/conformance/).
        name: 'conformance',
        kind: 'conformance',
        schedule: '0 6 * * *',
        maxTokens: 512,
      },
    ],
  },
  /** Defaults and limits of the recall, contamination and conformance probe kinds (see src/probe/kinds/, src/probe/conformance/). */
  probeKinds: {
    recall: {
      conversationTokens: 8000,
      facts: 5,
      positions: ['start', 'middle', 'end'],
      seed: 1,
      minRecall: 0.5,
    },
    contamination: {
      concurrency: 4,
      seed: 1,
    },
    conformance: {
      checks: CONFORMANCE_CHECKS,
    },
    golden: {
      tasks: GOLDEN_TASKS,
      seed: 1,
      // one exact answer: greedy decoding is what a golden set is scored at, and what changes least between runs
      temperature: 0,
    },
    limits: {
      // below 1,000 tokens there is no long context to lose; 1M is past every served model's window
      conversationTokensMin: 1000,
      conversationTokensMax: 1000000,
      factsMax: 20,
      concurrencyMin: 2,
      concurrencyMax: 32,
    },
  },
} as const;

/** Body fields the daemon sets itself; extraBody may not override them. Value = what to use instead. */
export const RESERVED_BODY_KEYS: Readonly<Record<string, string>> = Object.freeze({
  model: "set by the daemon from the target's model",
  messages: 'set by the daemon from prompt or messages',
  prompt: 'set by the daemon from prompt or messages (targets with api: completions)',
  input: 'set by the daemon from prompt or messages (targets with api: responses)',
  stream: 'set by the daemon (probes always stream)',
  stream_options: 'set by the daemon (usage reporting is required)',
  max_tokens: 'set by the daemon from maxTokens',
  max_completion_tokens: 'set by the daemon from maxTokens',
  max_output_tokens: 'set by the daemon from maxTokens (targets with api: responses)',
  temperature: 'set by the daemon from temperature',
  n: 'not supported; use samples to send several requests',
});

/** Headers the HTTP client or the daemon manages (JSON in, SSE out); a config may not set them. */
export const RESERVED_HEADERS: readonly string[] = Object.freeze([
  'content-type',
  'accept',
  'accept-encoding',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
]);

/** probes[].expect when a key of it is absent. */
export const EXPECT_DEFAULTS = { minCoverage: 0.6, headings: 0 } as const;
/** At most this many temperatures in one sweep (each one is a label value). */
export const TEMPERATURES_MAX = 8;
/** At most this many keywords in probes[].expect. */
export const KEYWORDS_MAX = 100;
