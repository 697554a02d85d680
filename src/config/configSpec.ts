/**
 * The config file format, declared once: every section and key with its type, range,
 * enum, pattern, default (from DEFAULTS), the rules between keys, the validator's messages
 * and a one-line description. Three things read it: readSection (the generic reader: it
 * enforces every rule declared here and applies the defaults), specTypes (the TypeScript
 * type of each section, derived from this object) and configSchema (the JSON Schema that
 * editors use). What a declaration cannot say (cron syntax, files, environment variables,
 * URL parsing, unique names, arithmetic between keys) stays hand code in validateConfig.
 *
 * Adding a key: one entry here (its section's order is the order of CONFIG_KEYS, of the
 * schema and of the messages) and its line in config/example.yaml, then `npm run schema`
 * to refresh config/coherency.schema.json.
 */
import { IDENTIFIED_LANGUAGES } from '../core/detectors/languageId/identifiedLanguages.js';
import { DEFAULT_THRESHOLDS } from '../core/thresholds.js';
import { DEFAULTS, EXPECT_DEFAULTS, KEYWORDS_MAX, RESERVED_BODY_KEYS, RESERVED_HEADERS, TEMPERATURES_MAX } from './defaults.js';
import { CONFORMANCE_CHECKS, GOLDEN_TASKS, PROBE_KINDS_NAMES, RECALL_POSITIONS } from './probeKindNames.js';

interface Common {
  description: string;
  /** What the key is when absent (taken from DEFAULTS); shown by editors. */
  default?: unknown;
  /** What the key is when absent where editors are shown no default (taken from DEFAULTS: null, {} or []). */
  whenAbsent?: unknown;
  required?: true;
  /** null is a meaningful value (storage.dir: null keeps runs in memory only). */
  nullable?: true;
  /** The validator's message when the value is wrong; default: written from the type and range. */
  message?: string;
  /** The message when the value is of another type (or a blank string), where it differs from `message`. */
  typeMessage?: string;
  /** The key is allowed only where another key of the section has one of these values (facts: kind recall). */
  onlyWhen?: KeyIs;
  /** The key is refused where another key of the section has one of these values (samples: kind conformance). */
  notWhen?: KeyIs;
}

/** A condition on a sibling key: `key` is set to one of `values`. */
export interface KeyIs {
  key: string;
  values: readonly string[];
  /** Why, in the validator's message (a conformance probe sends its own fixed requests). */
  why?: string;
}

export type FieldSpec = Common &
  (
    | {
        type: 'string';
        pattern?: string;
        /** The pattern is for editors only: the validator checks the value by hand, and says more (a URL, a probe name). */
        schemaOnly?: true;
        minLength?: number;
        /** Checked by the validator only (the schema file predates it and stays byte-identical). */
        maxLength?: number;
        enum?: readonly string[];
        /** Kept as written, spaces included (a prompt, a name); other strings are trimmed. */
        verbatim?: true;
        /** An empty string is a value (a header's). */
        blankOk?: true;
        /** A wrong value is quoted at the end of the message (host names: never a secret). */
        echo?: true;
        /** The value names an entry of this root list (a target's probes name probes). */
        namedIn?: 'probes';
      }
    | { type: 'integer' | 'number'; minimum?: number; exclusiveMinimum?: number; maximum?: number }
    | { type: 'boolean' }
    /** A named section of CONFIG_SPEC (a mapping with fixed keys); partial: absent keys stay absent (no defaults). */
    | { type: 'section'; section: SectionName; partial?: true }
    | {
        type: 'list';
        items: FieldSpec;
        minItems?: number;
        maxItems?: number;
        uniqueItems?: true;
        /** The message when there are fewer than minItems entries (or none, where the list is required). */
        emptyMessage?: string;
        /** The message at a repeated entry; {value} is the entry, {first} where it came first. */
        duplicateMessage?: string;
        /** Any problem of the list or of an entry is `message`, said once for the whole list. */
        oneMessage?: true;
        /** With oneMessage: entries outside the items' enum are named after it. */
        namesUnknown?: true;
      }
    /** A mapping with free keys: values of one kind; keys limited by a pattern, a closed list or a deny list. */
    | {
        type: 'map';
        /** null: any JSON value. */
        values: FieldSpec | null;
        keyPattern?: string;
        /** The message at a key that does not match keyPattern. */
        keyMessage?: string;
        keys?: readonly string[];
        /** What a key is called in messages ("unknown threshold", "duplicate of header"). */
        keyNoun?: string;
        forbiddenKeys?: readonly string[];
        /** Keys are the same whatever the case (HTTP header names): a second spelling is refused, forbiddenKeys match any. */
        keysIgnoreCase?: true;
        /** The message at a forbidden key, followed by that key's reason where forbiddenReasons gives one. */
        forbiddenMessage?: string;
        forbiddenReasons?: Readonly<Record<string, string>>;
      }
  );

export interface SectionSpec {
  description: string;
  fields: Readonly<Record<string, FieldSpec>>;
  /** Exactly one of these keys (probes: prompt or messages). */
  exactlyOne?: readonly string[];
  /** ...except where this holds: then none of them (recall and contamination probes build their own messages). */
  noneWhen?: KeyIs;
  /** At most one of these keys (targets: apiKeyEnv or apiKeyFile). */
  atMostOne?: readonly string[];
  /** Where the atMostOne problem is reported (a key of the section; default the section) and its message. */
  atMostOneAt?: string;
  atMostOneMessage?: string;
  /** The message when the section is not a mapping. */
  message?: string;
}

const L = DEFAULTS.limits;
const KL = DEFAULTS.probeKinds.limits;
const RECALL = { key: 'kind', values: ['recall'] } as const satisfies KeyIs;
/** A conformance probe sends its own fixed requests, once per run: the keys that shape a generation do not apply. */
const CONFORMANCE = {
  key: 'kind',
  values: ['conformance'],
  why: 'it sends its own fixed requests, once per run',
} as const satisfies KeyIs;
const NAME_PATTERN = '^[a-z0-9_-]+$';
/** A target's or a probe's name (validateConfig checks that it is unique). */
const uniqueName = (among: string) =>
  ({
    type: 'string',
    pattern: NAME_PATTERN,
    verbatim: true,
    required: true,
    message: 'must match [a-z0-9_-]+',
    description: `Unique among ${among}; [a-z0-9_-]+`,
  }) as const satisfies FieldSpec;
/** Somewhere a character other than whitespace and ASCII punctuation (ranges ! to /, : to @, [ to `, { to ~). */
const KEYWORD_PATTERN = '[^ \t\n\r\f\v!-/:-@\\[-`{-~]';
const port = (what: string, dflt: number) =>
  ({
    type: 'integer',
    minimum: L.portMin,
    maximum: L.portMax,
    default: dflt,
    description: `${what} listen port (0 = any free port)`,
  }) as const satisfies FieldSpec;
const host = (what: string, dflt: string) =>
  ({
    type: 'string',
    minLength: 1,
    default: dflt,
    description: `${what} listen address: an IP address or a host name (0.0.0.0 in a container)`,
  }) as const satisfies FieldSpec;
/** HTTP headers by name, string values (a target's requests, the OTLP exports). */
const HEADER_MAP = {
  type: 'map',
  values: {
    type: 'string',
    verbatim: true,
    blankOk: true,
    typeMessage: 'must be a string (quote numbers and booleans)',
    description: 'Header value',
  },
  keyPattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
  keyMessage: 'is not a valid HTTP header name',
  keysIgnoreCase: true,
  keyNoun: 'header',
  message: 'must be a mapping of header name to string value',
} as const;
const timeout = (what: string) => ({ type: 'number', exclusiveMinimum: 0, description: `Seconds: ${what}` }) as const satisfies FieldSpec;

export const CONFIG_SPEC = {
  root: {
    description: 'coherency-exporter config file (YAML). Unknown keys are errors.',
    fields: {
      server: {
        type: 'section',
        section: 'server',
        description: 'HTTP server for /metrics, /probe, /runs, /-/reload, /-/healthy, /-/ready',
      },
      simulator: { type: 'section', section: 'simulator', description: 'Built-in OpenAI-compatible simulator (demos and tests)' },
      metrics: { type: 'section', section: 'metrics', description: 'Exported figures' },
      storage: { type: 'section', section: 'storage', description: 'Run history (GET /runs, GET /runs/:id)' },
      otlp: {
        type: 'section',
        section: 'otlp',
        description: 'OpenTelemetry export of verdicts (and client metrics) over OTLP/HTTP; off unless an endpoint is given',
      },
      targets: {
        type: 'list',
        items: { type: 'section', section: 'target', description: 'An endpoint to probe' },
        minItems: 1,
        required: true,
        emptyMessage: 'must list at least one target',
        description: 'Endpoints to probe (at least one)',
      },
      probes: {
        type: 'list',
        items: { type: 'section', section: 'probe', description: 'A request to send' },
        minItems: 1,
        required: true,
        emptyMessage: 'must list at least one probe',
        description: 'What to send (at least one probe)',
      },
    },
  },
  server: {
    description: 'HTTP server',
    fields: {
      host: host('Server', DEFAULTS.server.host),
      port: port('Server', DEFAULTS.server.port),
      authToken: {
        type: 'string',
        pattern: `^\\s*[!-~]{${L.authTokenMinLength},}\\s*$`,
        message: `must be a string of at least ${L.authTokenMinLength} characters, printable ASCII without spaces`,
        description: `Bearer token for /probe, /runs and /-/reload (at least ${L.authTokenMinLength} printable ASCII characters). Better: leave it out and set ${DEFAULTS.authTokenEnv}`,
      },
      metricsAuth: {
        type: 'boolean',
        default: DEFAULTS.server.metricsAuth,
        description: `true: /metrics needs the token too; requires authToken or ${DEFAULTS.authTokenEnv}`,
      },
      maxConcurrentManualRuns: {
        type: 'integer',
        minimum: L.maxConcurrentManualRunsMin,
        maximum: L.maxConcurrentManualRunsMax,
        default: DEFAULTS.server.maxConcurrentManualRuns,
        description: 'Manual runs (POST /probe) in flight at once; beyond it 429',
      },
      maxConcurrentSamples: {
        type: 'integer',
        minimum: L.maxConcurrentSamplesMin,
        maximum: L.maxConcurrentSamplesMax,
        default: DEFAULTS.server.maxConcurrentSamples,
        description: 'Samples streaming at once, all targets and probes together; more wait for a slot',
      },
      allowedHosts: {
        type: 'list',
        items: {
          type: 'string',
          pattern: '^(\\*|(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?\\.?)$',
          maxLength: 253,
          typeMessage: 'must be a non-empty string',
          message: "must be a host name (letters, digits, '-' and '.', no port), *.domain or *",
          echo: true,
          description: 'A host name, *.domain for the names under it, or * for any',
        },
        minItems: 1,
        emptyMessage: 'must name at least one host (or [*] to accept any; leave it out for the default)',
        nullable: true,
        default: DEFAULTS.server.allowedHosts,
        message: 'must be a list of host names (localhost, coherency.example.com, *.example.com), or [*] to accept any',
        description:
          "Host names requests may be addressed to (the Host header), against DNS rebinding; others get 421 on every route. IP addresses always pass. Default: localhost, the machine's host name and server.host; [*] turns the check off",
      },
      trustProxy: {
        type: 'list',
        items: { type: 'string', minLength: 1, description: 'An IP address or CIDR range (10.0.0.0/8, fd00::/8)' },
        default: DEFAULTS.server.trustProxy,
        message: 'must be a list of IP addresses or CIDR ranges of reverse proxies (127.0.0.1, 10.0.0.0/8)',
        description:
          'Reverse proxies (IP addresses, CIDR ranges) whose X-Forwarded-For/-Proto/-Host are believed: the client address of the login limiter, HTTPS for the Secure cookie. Default none',
      },
    },
  },
  simulator: {
    description: 'Built-in simulator; the model name picks the scenario',
    fields: {
      enabled: { type: 'boolean', default: DEFAULTS.simulator.enabled, description: 'Start the simulator in-process' },
      host: host('Simulator', DEFAULTS.simulator.host),
      port: {
        ...port('Simulator', DEFAULTS.simulator.port),
        description: 'Simulator listen port; must differ from server.port when enabled',
      },
      tokensPerSecond: {
        type: 'number',
        minimum: 0,
        default: DEFAULTS.simulator.tokensPerSecond,
        message: 'must be a number >= 0 (0 = as fast as possible)',
        description: 'Streaming rate (0 = as fast as possible)',
      },
    },
  },
  metrics: {
    description: 'Exported figures',
    fields: {
      degenerationWindow: {
        type: 'integer',
        minimum: L.degenerationWindowMin,
        maximum: L.degenerationWindowMax,
        default: DEFAULTS.metrics.degenerationWindow,
        description: 'How many recent samples coherency_degeneration_ratio covers',
      },
      detail: {
        type: 'string',
        enum: ['basic', 'full'],
        default: DEFAULTS.metrics.detail,
        message: 'must be basic (about 100 series per target and probe) or full (every figure and channel)',
        description: 'basic: about 100 series per target x probe; full: every figure as a histogram per channel. Read at start',
      },
    },
  },
  storage: {
    description: 'Run history',
    fields: {
      dir: {
        type: 'string',
        minLength: 1,
        nullable: true,
        default: DEFAULTS.storage.dir,
        message: 'must be a directory path, or null to keep runs only in memory',
        description:
          'Directory that keeps failing and erroring runs across restarts, relative to the working directory; absent: $COHERENCY_STORAGE_DIR, else data/runs; null = in memory only',
      },
      maxRuns: { type: 'integer', minimum: 1, default: DEFAULTS.storage.maxRuns, description: 'Stored runs kept, oldest removed first' },
      maxBytes: {
        type: 'integer',
        minimum: 1,
        default: DEFAULTS.storage.maxBytes,
        message: 'must be a positive integer (bytes)',
        description: 'Total bytes of stored runs kept, oldest removed first',
      },
      historySize: {
        type: 'integer',
        minimum: L.historySizeMin,
        maximum: L.historySizeMax,
        default: DEFAULTS.storage.historySize,
        description: 'Recent runs (any verdict) kept in memory',
      },
      historyMaxBytes: {
        type: 'integer',
        minimum: L.historyMaxBytesMin,
        maximum: L.historyMaxBytesMax,
        default: DEFAULTS.storage.historyMaxBytes,
        message: `must be an integer from ${L.historyMaxBytesMin} (1 MiB) to ${L.historyMaxBytesMax} (16 GiB) (bytes of output text kept in memory)`,
        description: 'Bytes of output text the in-memory runs may hold',
      },
    },
  },
  otlp: {
    description: 'OpenTelemetry export over OTLP/HTTP (JSON); each key left out falls back to its OTEL_* variable',
    fields: {
      endpoint: {
        type: 'string',
        pattern: '^[hH][tT][tT][pP][sS]?://[^?#]+$',
        schemaOnly: true,
        nullable: true,
        whenAbsent: DEFAULTS.otlp.endpoint,
        description:
          'Base URL of an OTLP/HTTP collector (http://127.0.0.1:4318); /v1/logs and /v1/metrics are appended. Absent: $OTEL_EXPORTER_OTLP_ENDPOINT (and the per-signal variables); none: no export',
      },
      headers: {
        whenAbsent: DEFAULTS.otlp.headers,
        ...HEADER_MAP,
        description:
          'Headers sent with each export (a collector token); never logged or shown. Absent: $OTEL_EXPORTER_OTLP_HEADERS, the better place for a secret',
      },
      metrics: {
        type: 'boolean',
        default: DEFAULTS.otlp.metrics,
        description:
          'true: export the GenAI client metrics (operation duration, token usage, time to first chunk, time per output chunk) too',
      },
      timeoutSeconds: {
        type: 'number',
        exclusiveMinimum: 0,
        default: DEFAULTS.otlp.timeoutSeconds,
        description: 'Seconds one export may take before its records are dropped (and at shutdown, the last flush)',
      },
      maxQueueSize: {
        type: 'integer',
        minimum: 1,
        maximum: L.otlpMaxQueueSizeMax,
        default: DEFAULTS.otlp.maxQueueSize,
        description: 'Evaluation events waiting for export; past it new ones are dropped and counted',
      },
      exportIntervalSeconds: {
        type: 'number',
        exclusiveMinimum: 0,
        default: DEFAULTS.otlp.exportIntervalSeconds,
        description: 'Seconds between exports of the waiting events, and of the metrics',
      },
    },
  },
  target: {
    description: 'An OpenAI-compatible endpoint',
    atMostOne: ['apiKeyEnv', 'apiKeyFile'],
    fields: {
      name: uniqueName('targets'),
      baseUrl: {
        type: 'string',
        // new URL() is the real check; this catches the common slips in an editor.
        pattern: '^[hH][tT][tT][pP][sS]?://[^?#]+$',
        schemaOnly: true,
        required: true,
        description:
          'http(s) URL before /chat/completions (or /completions, /responses), e.g. http://127.0.0.1:8000/v1; no user:password@, no ?query',
      },
      model: { type: 'string', minLength: 1, required: true, description: 'The "model" field sent in each request' },
      api: {
        type: 'string',
        enum: ['chat', 'completions', 'responses'],
        default: DEFAULTS.target.api,
        description:
          'The API probed: chat ({baseUrl}/chat/completions), completions ({baseUrl}/completions, a prompt string: base models) or responses ({baseUrl}/responses, typed events)',
      },
      apiKeyEnv: {
        whenAbsent: DEFAULTS.target.apiKeyEnv,
        type: 'string',
        pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
        verbatim: true,
        message: 'must be the name of an environment variable (letters, digits and _), not the key itself',
        description: 'NAME of an environment variable holding the key (sent as Authorization: Bearer), never the key itself',
      },
      apiKeyFile: {
        whenAbsent: DEFAULTS.target.apiKeyFile,
        type: 'string',
        minLength: 1,
        message: 'must be the path of a file holding the key, not the key itself',
        description: 'Path of a file holding the key (a mounted Secret), read at each run',
      },
      headers: {
        whenAbsent: DEFAULTS.target.headers,
        ...HEADER_MAP,
        forbiddenKeys: RESERVED_HEADERS,
        forbiddenMessage: 'is managed by the HTTP client and cannot be set',
        description: 'Extra request headers (string values)',
      },
      probes: {
        type: 'list',
        items: {
          type: 'string',
          pattern: NAME_PATTERN,
          schemaOnly: true,
          verbatim: true,
          blankOk: true,
          namedIn: 'probes',
          message: 'must be a probe name',
          description: 'A probe name',
        },
        minItems: 1,
        uniqueItems: true,
        message: 'must be a list of probe names',
        emptyMessage: 'must list at least one probe (leave it out to run every probe)',
        duplicateMessage: 'duplicate of {first} {value}',
        description: 'Names of the probes this target runs; default every probe',
      },
      timeouts: { type: 'section', section: 'timeouts', description: 'Request timeouts' },
      tls: { type: 'section', section: 'tls', description: 'TLS options, for an https baseUrl only' },
      maxTokensField: {
        type: 'string',
        enum: ['max_tokens', 'max_completion_tokens'],
        nullable: true,
        default: DEFAULTS.target.maxTokensField,
        description: 'Where the token limit goes; default max_tokens, switched when the server refuses it',
      },
      omit: {
        whenAbsent: DEFAULTS.target.omit,
        type: 'list',
        items: { type: 'string', enum: ['temperature'], message: 'only temperature can be left out', description: 'A request field' },
        message: 'must be a list of request fields to leave out: [temperature]',
        description: 'Request fields never sent (a model that accepts only its default temperature)',
      },
      modelAliases: {
        type: 'list',
        items: { type: 'string', minLength: 1, message: 'must be a model name (a non-empty string)', description: 'A model name' },
        uniqueItems: true,
        duplicateMessage: 'duplicate of {value}',
        default: DEFAULTS.target.modelAliases,
        message: 'must be a list of model names',
        description: "Other names the endpoint may give the model in its answers' model field (conformance probes: check models)",
      },
      reasoning: {
        type: 'boolean',
        nullable: true,
        default: DEFAULTS.target.reasoning,
        message: 'must be true (the model reasons), false (it does not) or null (detect it from its first answer)',
        description:
          'The model reasons: conformance probes expect its reasoning in a field of its own (check reasoning); false: it does not (skipped); absent: detected from its first answer',
      },
      fingerprintReads: {
        type: 'boolean',
        default: DEFAULTS.target.fingerprintReads,
        description:
          "Read what the target says of itself after a run (GET {baseUrl}/models with the target's headers, its server's info endpoints at the origin's root without them, at most every 5 minutes); false: no such request, the fingerprint comes from the answers alone",
      },
    },
  },
  probe: {
    description: 'A request sent to every target that runs it',
    exactlyOne: ['prompt', 'messages'],
    noneWhen: { key: 'kind', values: ['recall', 'contamination', 'conformance', 'golden'], why: 'builds its own messages' },
    atMostOne: ['temperature', 'temperatures'],
    // a sweep replaces the one temperature: both set would leave one of them silently unused
    atMostOneAt: 'temperature',
    atMostOneMessage: 'set temperature or temperatures (a sweep), not both',
    fields: {
      name: uniqueName('probes'),
      schedule: {
        type: 'string',
        nullable: true,
        default: DEFAULTS.probe.schedule,
        blankOk: true,
        typeMessage: 'must be a cron expression in quotes',
        description: 'node-cron expression, 5 fields (minute first) or 6 (second first); absent = manual only',
      },
      prompt: { type: 'string', minLength: 1, verbatim: true, description: 'Sent as a single user message (or give messages)' },
      messages: {
        type: 'list',
        items: { type: 'section', section: 'message', description: 'A chat message' },
        minItems: 1,
        message: 'must be a list of {role, content}',
        emptyMessage: 'must contain at least one message',
        description: 'A full conversation instead of prompt; at least one user message',
      },
      maxTokens: { type: 'integer', minimum: 1, required: true, description: 'Token limit of each request' },
      temperature: {
        type: 'number',
        minimum: L.temperatureMin,
        maximum: L.temperatureMax,
        default: DEFAULTS.probe.temperature,
        description: 'Sampling temperature (greedy 0 loops on its own on many models); golden probes: 0 when absent',
      },
      samples: {
        type: 'integer',
        minimum: 1,
        maximum: L.samplesMax,
        default: DEFAULTS.probe.samples,
        description: 'Requests per run, one after another',
        notWhen: CONFORMANCE,
      },
      minTokens: {
        type: 'integer',
        minimum: 0,
        default: DEFAULTS.probe.minTokens,
        description: 'Fewer output tokens make the sample inconclusive (warn); at most maxTokens',
        notWhen: CONFORMANCE,
      },
      thresholds: {
        whenAbsent: DEFAULTS.probe.thresholds,
        type: 'map',
        values: { type: 'number', minimum: 0, message: 'must be a finite number >= 0', description: 'Analyzer threshold' },
        keys: Object.keys(DEFAULT_THRESHOLDS),
        keyNoun: 'threshold',
        message: 'must be a mapping of threshold name to number',
        description: 'Analyzer threshold overrides by name (src/core/thresholds.ts)',
        notWhen: CONFORMANCE,
      },
      verdict: {
        type: 'string',
        enum: ['rules', 'learned'],
        default: DEFAULTS.probe.verdict,
        description:
          "Who decides a sample's verdict: rules (the detectors; the learned model's score is shown as information) or learned (the model with the hard rules; docs/detection.md)",
        notWhen: CONFORMANCE,
      },
      verdictModel: {
        whenAbsent: DEFAULTS.probe.verdictModel,
        type: 'string',
        minLength: 1,
        message: 'must be the path of a verdict model file (JSON written by npm run train)',
        description: 'A verdict model retrained with npm run train (JSON, read and checked at load); default the committed one',
        notWhen: CONFORMANCE,
      },
      timeouts: { type: 'section', section: 'timeouts', partial: true, description: "Timeout overrides, merged over the target's" },
      extraBody: {
        whenAbsent: DEFAULTS.probe.extraBody,
        type: 'map',
        values: null,
        forbiddenKeys: Object.keys(RESERVED_BODY_KEYS),
        forbiddenMessage: 'cannot be overridden',
        forbiddenReasons: RESERVED_BODY_KEYS,
        message: 'must be a mapping of request body fields',
        description: 'Fields merged into the request body (top_p, seed, stop, vendor options)',
      },
      abortOnCollapse: {
        type: 'boolean',
        default: DEFAULTS.probe.abortOnCollapse,
        description: 'Close the stream once the output has certainly collapsed',
        notWhen: CONFORMANCE,
      },
      runOnStart: {
        type: 'boolean',
        default: DEFAULTS.probe.runOnStart,
        description: 'Run once soon after start (the first runs are spread over the first minute), then on the schedule',
      },
      maxResponseBytes: {
        type: 'integer',
        minimum: 65536,
        nullable: true,
        default: DEFAULTS.probe.maxResponseBytes,
        message: 'must be an integer of at least 65536 (bytes)',
        description: 'Byte cap on one response; null = 1 KiB per maxTokens token, 8 MiB at least',
      },
      expect: {
        type: 'section',
        section: 'expect',
        description:
          'Prompt adherence: keywords the answer must mention (else off_prompt, fail), markdown headings it must have (warn) and the language it must be in (else wrong_language, fail)',
        notWhen: CONFORMANCE,
      },
      temperatures: {
        whenAbsent: DEFAULTS.probe.temperatures,
        type: 'list',
        items: { type: 'number', minimum: L.temperatureMin, maximum: L.temperatureMax, description: 'A sampling temperature' },
        minItems: 1,
        maxItems: TEMPERATURES_MAX,
        uniqueItems: true,
        message: `must be a list of 1 to ${TEMPERATURES_MAX} distinct numbers from ${L.temperatureMin} to ${L.temperatureMax}`,
        duplicateMessage: '{value} is listed twice',
        description: 'A sweep: every sample runs at each temperature (samples x temperatures requests); series get a temperature label',
        notWhen: CONFORMANCE,
      },
      logprobs: {
        type: 'boolean',
        default: DEFAULTS.probe.logprobs,
        description: 'Ask for per-token logprobs; a locked-in tail (logprob ~0) strengthens a repeat warning into a fail',
        notWhen: CONFORMANCE,
      },
      kind: {
        type: 'string',
        enum: PROBE_KINDS_NAMES,
        default: 'generation',
        description:
          "generation: one long answer (default); recall: facts planted in a long conversation, asked for at its end; contamination: concurrent requests, each answer checked for the others' code words; conformance: a checklist of what the API must get right (model, fields, reasoning, tools, streaming, limits, auth); golden: tasks with one exact answer (arithmetic, copying, counting, sorting, lookup), at temperature 0",
      },
      conversationTokens: {
        type: 'integer',
        minimum: KL.conversationTokensMin,
        maximum: KL.conversationTokensMax,
        default: DEFAULTS.probeKinds.recall.conversationTokens,
        onlyWhen: RECALL,
        description: 'Recall: size of the built conversation in estimated tokens',
      },
      facts: {
        type: 'integer',
        minimum: 1,
        maximum: KL.factsMax,
        default: DEFAULTS.probeKinds.recall.facts,
        onlyWhen: RECALL,
        description: 'Recall: facts planted',
      },
      positions: {
        type: 'list',
        items: { type: 'string', enum: RECALL_POSITIONS, description: 'Where in the conversation' },
        minItems: 1,
        uniqueItems: true,
        default: DEFAULTS.probeKinds.recall.positions,
        onlyWhen: RECALL,
        message: `must be a non-empty list of ${RECALL_POSITIONS.join(', ')} (each at most once)`,
        oneMessage: true,
        description: 'Recall: where facts are planted, in turn (start, middle, end)',
      },
      seed: {
        type: 'integer',
        minimum: 0,
        maximum: 2 ** 32 - 1,
        default: DEFAULTS.probeKinds.recall.seed,
        onlyWhen: { key: 'kind', values: ['recall', 'contamination', 'golden'] },
        description:
          'Recall: seeds the conversation (same seed, same conversation); contamination: seeds topics and code words with the run id; golden: seeds the tasks with the run id and the sample',
      },
      minRecall: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        default: DEFAULTS.probeKinds.recall.minRecall,
        onlyWhen: RECALL,
        message: 'must be a number from 0 to 1 (the share of facts recalled under which a sample fails)',
        description: 'Recall: share of facts (0-1) under which a sample fails; some missed above it is a warning',
      },
      concurrency: {
        type: 'integer',
        minimum: KL.concurrencyMin,
        maximum: KL.concurrencyMax,
        default: DEFAULTS.probeKinds.contamination.concurrency,
        onlyWhen: { key: 'kind', values: ['contamination'] },
        description: 'Contamination: requests sent at once, each with its own topic and code word',
      },
      checks: {
        type: 'list',
        items: { type: 'string', enum: CONFORMANCE_CHECKS, description: 'A conformance check' },
        minItems: 1,
        uniqueItems: true,
        default: DEFAULTS.probeKinds.conformance.checks,
        onlyWhen: CONFORMANCE,
        message: `must be a non-empty list of ${CONFORMANCE_CHECKS.join(', ')} (each at most once)`,
        oneMessage: true,
        namesUnknown: true,
        description: 'Conformance: the checks to run (default all; one that cannot apply to the target is skipped)',
      },
      tasks: {
        type: 'list',
        items: { type: 'string', enum: GOLDEN_TASKS, description: 'A golden task' },
        minItems: 1,
        uniqueItems: true,
        default: DEFAULTS.probeKinds.golden.tasks,
        onlyWhen: { key: 'kind', values: ['golden'] },
        message: `must be a non-empty list of ${GOLDEN_TASKS.join(', ')} (each at most once)`,
        oneMessage: true,
        namesUnknown: true,
        description: 'Golden: the tasks asked in turn, one a sample (default all)',
      },
    },
  },
  expect: {
    description: 'What a generation answer must contain',
    message: 'must be a mapping with keywords (a list), minCoverage (0-1), headings (an integer) and language (an ISO 639-1 code)',
    fields: {
      keywords: {
        type: 'list',
        // The validator wants a letter or digit (\p{L}, \p{N}); the schema says "a character that is
        // neither whitespace nor ASCII punctuation", in the pattern subset every JSON Schema
        // validator reads (Python's re has no \p{..}): a little laxer, never stricter.
        items: {
          type: 'string',
          pattern: KEYWORD_PATTERN,
          schemaOnly: true,
          message: 'must be a word or phrase (letters or digits)',
          description: 'A word or short phrase (stemmed, case-insensitive)',
        },
        maxItems: KEYWORDS_MAX,
        message: `must be a list of up to ${KEYWORDS_MAX} words or short phrases`,
        description: 'Words or phrases the answer should mention',
      },
      minCoverage: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        default: EXPECT_DEFAULTS.minCoverage,
        message: 'must be a number from 0 to 1 (the share of keywords the answer must mention)',
        description: 'Share of keywords (0-1) the answer must mention; under it the sample fails off_prompt',
      },
      headings: {
        type: 'integer',
        minimum: 0,
        maximum: 1000,
        default: EXPECT_DEFAULTS.headings,
        message: 'must be an integer from 0 to 1000 (markdown headings the answer must have)',
        description: 'At least this many markdown headings, else a warning (missing_headings)',
      },
      language: {
        type: 'string',
        enum: IDENTIFIED_LANGUAGES,
        message: `must be an ISO 639-1 code the language identifier knows (${IDENTIFIED_LANGUAGES.join(', ')})`,
        description:
          'The language the answer must be in (ISO 639-1, e.g. en, ko); an answer mostly in another language fails wrong_language, and a switch into it or its script is the answer asked for (a translation after a line in English), no script_switch or language_switch',
      },
    },
  },
  message: {
    description: 'A chat message',
    message: 'must be a mapping with role and content',
    fields: {
      role: { type: 'string', enum: ['system', 'user', 'assistant'], required: true, description: 'Who speaks' },
      content: { type: 'string', minLength: 1, verbatim: true, required: true, description: 'The text' },
    },
  },
  timeouts: {
    description: 'Timeouts in seconds',
    fields: {
      connectSeconds: { ...timeout('opening the connection (TCP, TLS)'), default: DEFAULTS.target.timeouts.connectSeconds },
      idleSeconds: {
        ...timeout(
          'longest wait for the response headers, or between two chunks that carry output (comments and keep-alives do not count)',
        ),
        default: DEFAULTS.target.timeouts.idleSeconds,
      },
      totalSeconds: { ...timeout('the whole request, up to [DONE]'), default: DEFAULTS.target.timeouts.totalSeconds },
      slowSeconds: {
        ...timeout(
          'the window of the minimum output rate: once output has come, a window with under 2 bytes of output a second ends the request with too_slow',
        ),
        default: DEFAULTS.target.timeouts.slowSeconds,
      },
      runSeconds: timeout(
        'the whole run of the probe, every request it sends (default: totalSeconds for each sample of the run, plus idleSeconds); past it the run ends with timeout_run',
      ),
    },
  },
  tls: {
    description: 'TLS options',
    fields: {
      caFile: {
        whenAbsent: DEFAULTS.target.tls.caFile,
        type: 'string',
        minLength: 1,
        message: 'must be the path of a file holding PEM CA certificates',
        description: 'PEM file of the CA(s) that signed the server certificate; default the system CAs',
      },
      insecureSkipVerify: {
        type: 'boolean',
        default: DEFAULTS.target.tls.insecureSkipVerify,
        description: 'Accept any certificate (test setups only); not together with caFile',
      },
    },
  },
} as const satisfies Record<string, SectionSpec>;

export type SectionName =
  | 'root'
  | 'server'
  | 'simulator'
  | 'metrics'
  | 'storage'
  | 'otlp'
  | 'target'
  | 'probe'
  | 'expect'
  | 'message'
  | 'timeouts'
  | 'tls';

type Keys<S extends SectionName> = Extract<keyof (typeof CONFIG_SPEC)[S]['fields'], string>;

/** The keys of one section, in their declared order. */
export function sectionKeys<S extends SectionName>(section: S): readonly Keys<S>[] {
  return Object.freeze(Object.keys(CONFIG_SPEC[section].fields)) as readonly Keys<S>[];
}

/** Every key the file format accepts, per section, as configSpec.ts declares them; config/example.yaml documents each. */
export const CONFIG_KEYS = Object.freeze({
  root: sectionKeys('root'),
  server: sectionKeys('server'),
  simulator: sectionKeys('simulator'),
  metrics: sectionKeys('metrics'),
  storage: sectionKeys('storage'),
  otlp: sectionKeys('otlp'),
  target: sectionKeys('target'),
  probe: sectionKeys('probe'),
  message: sectionKeys('message'),
  timeouts: sectionKeys('timeouts'),
  tls: sectionKeys('tls'),
});

/** The validator's message for a wrong value, from the declaration unless it gives its own. */
export function fieldMessage(f: FieldSpec): string {
  if (f.message !== undefined) return f.message;
  switch (f.type) {
    case 'boolean':
      return 'must be true or false';
    case 'string':
      if (f.enum) return f.enum.length === 2 ? `must be ${f.enum[0]} or ${f.enum[1]}` : `must be one of ${f.enum.join(', ')}`;
      return 'must be a non-empty string';
    case 'integer':
    case 'number': {
      const kind = f.type === 'integer' ? 'an integer' : 'a number';
      if (f.minimum !== undefined && f.maximum !== undefined) return `must be ${kind} from ${f.minimum} to ${f.maximum}`;
      if (f.exclusiveMinimum === 0) return `must be a positive ${f.type}`;
      if (f.minimum === 1 && f.type === 'integer') return 'must be a positive integer';
      if (f.minimum === 0) return f.type === 'integer' ? 'must be a non-negative integer' : 'must be a number >= 0';
      if (f.minimum !== undefined) return `must be ${kind} of at least ${f.minimum}`;
      return `must be ${kind}`;
    }
    default:
      return `must be a ${f.type}`;
  }
}

/** Whether a present (non-null) value meets a scalar declaration: type, range, enum, pattern, length. */
export function fieldAccepts(f: FieldSpec, v: unknown): boolean {
  switch (f.type) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'string': {
      if (typeof v !== 'string') return false;
      if (f.enum) return f.enum.includes(v);
      const s = f.verbatim ? v : v.trim();
      if (f.pattern !== undefined && !f.schemaOnly && !new RegExp(f.pattern, 'u').test(s)) return false;
      if (f.maxLength !== undefined && s.length > f.maxLength) return false;
      return f.blankOk === true || v.trim().length >= (f.minLength ?? 1);
    }
    case 'integer':
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return false;
      if (f.type === 'integer' && !Number.isSafeInteger(v)) return false;
      if (f.minimum !== undefined && v < f.minimum) return false;
      if (f.exclusiveMinimum !== undefined && v <= f.exclusiveMinimum) return false;
      return f.maximum === undefined || v <= f.maximum;
    default:
      return true;
  }
}

/** The message for a wrong scalar value: typeMessage for another type or a blank string, else the declaration's. */
export function wrongValueMessage(f: FieldSpec, v: unknown): string {
  if (f.typeMessage !== undefined && (typeof v !== 'string' || (v.trim() === '' && f.type === 'string' && !f.blankOk)))
    return f.typeMessage;
  const message = fieldMessage(f);
  return f.type === 'string' && f.echo && typeof v === 'string' ? `${message}, got ${JSON.stringify(v.trim().slice(0, 60))}` : message;
}

/** One key's declaration: `fieldSpec('probe', 'temperature')`. */
export function fieldSpec<S extends SectionName>(section: S, key: Keys<S>): FieldSpec {
  return (CONFIG_SPEC[section].fields as Record<string, FieldSpec>)[key] as FieldSpec;
}
