import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import type { Config } from '../../src/config/types.js';

const T = '{name: local, baseUrl: "http://127.0.0.1:8000/v1", model: m}';
const P = '{name: short, prompt: hi, maxTokens: 100}';
const TARGETS = `targets:\n  - ${T}\n`;
const PROBES = `probes:\n  - ${P}\n`;
const BASE = TARGETS + PROBES;
/** A valid document with one target built from the given flow-mapping fields. */
const target = (fields: string): string => `targets:\n  - {name: local, model: m, baseUrl: "http://h/v1", ${fields}}\n${PROBES}`;
const probe = (fields: string): string => `${TARGETS}probes:\n  - {name: short, ${fields}}\n`;

/** Files the fake file system holds: path → why it cannot be used (null = readable). Others do not exist. */
type Files = Record<string, string | null>;

function fakeFiles(files: Files): (path: string) => string | null {
  return (path) => (path in files ? (files[path] ?? null) : 'does not exist');
}

function ok(yaml: string, env: Record<string, string> = {}, files: Files = {}): Config {
  const r = parseConfig(yaml, { env, checkFile: fakeFiles(files) });
  assert.ok(r.ok, `expected a valid config, got: ${r.ok ? '' : r.errors.join('\n')}`);
  return r.config;
}

function errors(yaml: string, env: Record<string, string> = {}, files: Files = {}): string[] {
  const r = parseConfig(yaml, { env, checkFile: fakeFiles(files) });
  assert.equal(r.ok, false, 'expected errors');
  return r.ok ? [] : r.errors;
}

const TOKEN = 'tok-0123456789abcdef';
const TOKEN_RULE = 'must be a string of at least 16 characters, printable ASCII without spaces';
/** A valid document with one https target built from the given flow-mapping fields. */
const httpsTarget = (fields: string): string => `targets:\n  - {name: local, model: m, baseUrl: "https://h/v1", ${fields}}\n${PROBES}`;

// One row per rule: a broken document and exactly the errors it must produce.
const INVALID: { rule: string; yaml: string; expected: string[]; env?: Record<string, string>; files?: Files }[] = [
  // root
  {
    rule: 'root must be a mapping',
    yaml: '- a\n- b\n',
    expected: [
      'config: must be a mapping with the keys server, simulator, metrics, storage, targets, probes',
      'targets: must list at least one target',
      'probes: must list at least one probe',
    ],
  },
  { rule: 'empty document', yaml: '', expected: ['targets: must list at least one target', 'probes: must list at least one probe'] },
  { rule: 'unknown top-level key with suggestion', yaml: `${BASE}target: []\n`, expected: ['target: unknown key (did you mean targets?)'] },
  {
    rule: 'unknown top-level key without suggestion',
    yaml: `${BASE}logging: {}\n`,
    expected: ['logging: unknown key (known: server, simulator, metrics, storage, targets, probes)'],
  },
  // server
  { rule: 'server must be a mapping', yaml: `server: 9464\n${BASE}`, expected: ['server: must be a mapping'] },
  {
    rule: 'server.port above range',
    yaml: `server: {port: 70000}\n${BASE}`,
    expected: ['server.port: must be an integer from 0 to 65535'],
  },
  { rule: 'server.port negative', yaml: `server: {port: -1}\n${BASE}`, expected: ['server.port: must be an integer from 0 to 65535'] },
  { rule: 'server.port as string', yaml: `server: {port: "9464"}\n${BASE}`, expected: ['server.port: must be an integer from 0 to 65535'] },
  { rule: 'server.host empty', yaml: `server: {host: ""}\n${BASE}`, expected: ['server.host: must be a non-empty string'] },
  { rule: 'server unknown key', yaml: `server: {hostname: x}\n${BASE}`, expected: ['server.hostname: unknown key (did you mean host?)'] },
  {
    rule: 'server.authToken too short',
    yaml: `server: {authToken: "tok-0123456789a"}\n${BASE}`,
    expected: [`server.authToken: ${TOKEN_RULE}`],
  },
  {
    rule: 'server.authToken with a space',
    yaml: `server: {authToken: "tok 0123456789abcdef"}\n${BASE}`,
    expected: [`server.authToken: ${TOKEN_RULE}`],
  },
  {
    rule: 'server.authToken must be a string',
    yaml: `server: {authToken: 12345678901234567}\n${BASE}`,
    expected: [`server.authToken: ${TOKEN_RULE}`],
  },
  {
    rule: 'COHERENCY_AUTH_TOKEN too short',
    yaml: BASE,
    env: { COHERENCY_AUTH_TOKEN: 'short' },
    expected: [`COHERENCY_AUTH_TOKEN: ${TOKEN_RULE}`],
  },
  {
    rule: 'COHERENCY_AUTH_TOKEN empty',
    yaml: BASE,
    env: { COHERENCY_AUTH_TOKEN: ' ' },
    expected: ['COHERENCY_AUTH_TOKEN: is set but empty (unset it to run without auth)'],
  },
  {
    rule: 'server.metricsAuth without a token',
    yaml: `server: {metricsAuth: true}\n${BASE}`,
    expected: ['server.metricsAuth: needs a token: set server.authToken or COHERENCY_AUTH_TOKEN'],
  },
  {
    rule: 'server.allowedHosts entries are host names, not URLs or ports',
    yaml: `server: {allowedHosts: ["http://x.example", "x.example:9464", "", 7]}\n${BASE}`,
    expected: [
      `server.allowedHosts[0]: must be a host name (letters, digits, '-' and '.', no port), *.domain or *, got "http://x.example"`,
      `server.allowedHosts[1]: must be a host name (letters, digits, '-' and '.', no port), *.domain or *, got "x.example:9464"`,
      'server.allowedHosts[2]: must be a non-empty string',
      'server.allowedHosts[3]: must be a non-empty string',
    ],
  },
  {
    rule: 'server.allowedHosts must be a list with a name',
    yaml: `server: {allowedHosts: localhost}\n${BASE}`,
    expected: ['server.allowedHosts: must be a list of host names (localhost, coherency.example.com, *.example.com), or [*] to accept any'],
  },
  {
    rule: 'server.allowedHosts empty',
    yaml: `server: {allowedHosts: []}\n${BASE}`,
    expected: ['server.allowedHosts: must name at least one host (or [*] to accept any; leave it out for the default)'],
  },
  {
    rule: 'server.trustProxy entries are addresses or CIDR ranges',
    yaml: `server: {trustProxy: [proxy.local, 10.0.0.0/33, "fd00::/129", 10.0.0.0/8]}\n${BASE}`,
    expected: [
      'server.trustProxy[0]: must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got "proxy.local"',
      'server.trustProxy[1]: must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got "10.0.0.0/33"',
      'server.trustProxy[2]: must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got "fd00::/129"',
    ],
  },
  {
    rule: 'server.trustProxy must be a list',
    yaml: `server: {trustProxy: true}\n${BASE}`,
    expected: ['server.trustProxy: must be a list of IP addresses or CIDR ranges of reverse proxies (127.0.0.1, 10.0.0.0/8)'],
  },
  {
    rule: 'server.metricsAuth must be boolean',
    yaml: `server: {metricsAuth: "yes"}\n${BASE}`,
    expected: ['server.metricsAuth: must be true or false'],
  },
  {
    rule: 'server.maxConcurrentManualRuns at least 1',
    yaml: `server: {maxConcurrentManualRuns: 0}\n${BASE}`,
    expected: ['server.maxConcurrentManualRuns: must be an integer from 1 to 100'],
  },
  {
    rule: 'server.maxConcurrentManualRuns at most 100',
    yaml: `server: {maxConcurrentManualRuns: 101}\n${BASE}`,
    expected: ['server.maxConcurrentManualRuns: must be an integer from 1 to 100'],
  },
  {
    rule: 'server.maxConcurrentSamples at least 1',
    yaml: `server: {maxConcurrentSamples: 0}\n${BASE}`,
    expected: ['server.maxConcurrentSamples: must be an integer from 1 to 1000'],
  },
  {
    rule: 'server.maxConcurrentSamples an integer',
    yaml: `server: {maxConcurrentSamples: 2.5}\n${BASE}`,
    expected: ['server.maxConcurrentSamples: must be an integer from 1 to 1000'],
  },
  // storage
  { rule: 'storage must be a mapping', yaml: `storage: /var/lib/coherency\n${BASE}`, expected: ['storage: must be a mapping'] },
  {
    rule: 'storage.dir must be a path',
    yaml: `storage: {dir: ""}\n${BASE}`,
    expected: ['storage.dir: must be a directory path, or null to keep runs only in memory'],
  },
  {
    rule: 'storage.dir must be a string',
    yaml: `storage: {dir: [a]}\n${BASE}`,
    expected: ['storage.dir: must be a directory path, or null to keep runs only in memory'],
  },
  {
    rule: 'storage.maxRuns positive integer',
    yaml: `storage: {maxRuns: 0}\n${BASE}`,
    expected: ['storage.maxRuns: must be a positive integer'],
  },
  {
    rule: 'storage.maxBytes positive integer',
    yaml: `storage: {maxBytes: 1.5}\n${BASE}`,
    expected: ['storage.maxBytes: must be a positive integer (bytes)'],
  },
  {
    rule: 'storage.historySize range',
    yaml: `storage: {historySize: 10001}\n${BASE}`,
    expected: ['storage.historySize: must be an integer from 1 to 10000'],
  },
  {
    rule: 'storage.historyMaxBytes below 1 MiB',
    yaml: `storage: {historyMaxBytes: 1048575}\n${BASE}`,
    expected: [
      'storage.historyMaxBytes: must be an integer from 1048576 (1 MiB) to 17179869184 (16 GiB) (bytes of output text kept in memory)',
    ],
  },
  {
    rule: 'storage.historyMaxBytes above 16 GiB',
    yaml: `storage: {historyMaxBytes: 17179869185}\n${BASE}`,
    expected: [
      'storage.historyMaxBytes: must be an integer from 1048576 (1 MiB) to 17179869184 (16 GiB) (bytes of output text kept in memory)',
    ],
  },
  {
    rule: 'storage.historyMaxBytes integer',
    yaml: `storage: {historyMaxBytes: "64MiB"}\n${BASE}`,
    expected: [
      'storage.historyMaxBytes: must be an integer from 1048576 (1 MiB) to 17179869184 (16 GiB) (bytes of output text kept in memory)',
    ],
  },
  {
    rule: 'storage unknown key',
    yaml: `storage: {directory: /x}\n${BASE}`,
    expected: ['storage.directory: unknown key (known: dir, maxRuns, maxBytes, historySize, historyMaxBytes)'],
  },
  // simulator
  {
    rule: 'simulator.enabled must be boolean',
    yaml: `simulator: {enabled: "yes"}\n${BASE}`,
    expected: ['simulator.enabled: must be true or false'],
  },
  {
    rule: 'simulator.port range',
    yaml: `simulator: {port: 1.5}\n${BASE}`,
    expected: ['simulator.port: must be an integer from 0 to 65535'],
  },
  {
    rule: 'simulator.tokensPerSecond not negative',
    yaml: `simulator: {tokensPerSecond: -1}\n${BASE}`,
    expected: ['simulator.tokensPerSecond: must be a number >= 0 (0 = as fast as possible)'],
  },
  {
    rule: 'simulator and server on one port',
    yaml: `server: {port: 8089}\nsimulator: {enabled: true}\n${BASE}`,
    expected: ['simulator.port: must differ from server.port (8089)'],
  },
  // metrics
  {
    rule: 'degenerationWindow range',
    yaml: `metrics: {degenerationWindow: 0}\n${BASE}`,
    expected: ['metrics.degenerationWindow: must be an integer from 1 to 1000'],
  },
  {
    rule: 'degenerationWindow too large',
    yaml: `metrics: {degenerationWindow: 1001}\n${BASE}`,
    expected: ['metrics.degenerationWindow: must be an integer from 1 to 1000'],
  },
  {
    rule: 'metrics.detail unknown',
    yaml: `metrics: {detail: everything}\n${BASE}`,
    expected: ['metrics.detail: must be basic (about 100 series per target and probe) or full (every figure and channel)'],
  },
  {
    rule: 'metrics.detail not a string',
    yaml: `metrics: {detail: true}\n${BASE}`,
    expected: ['metrics.detail: must be basic (about 100 series per target and probe) or full (every figure and channel)'],
  },
  // targets
  { rule: 'targets missing', yaml: PROBES, expected: ['targets: must list at least one target'] },
  { rule: 'targets empty', yaml: `targets: []\n${PROBES}`, expected: ['targets: must list at least one target'] },
  { rule: 'targets not a list', yaml: `targets: {name: x}\n${PROBES}`, expected: ['targets: must be a list'] },
  { rule: 'target not a mapping', yaml: `targets: [local]\n${PROBES}`, expected: ['targets[0]: must be a mapping'] },
  {
    rule: 'target name pattern',
    yaml: `targets:\n  - {name: Local, baseUrl: "http://h/v1", model: m}\n${PROBES}`,
    expected: ['targets[0].name: must match [a-z0-9_-]+'],
  },
  {
    rule: 'target name required',
    yaml: `targets:\n  - {baseUrl: "http://h/v1", model: m}\n${PROBES}`,
    expected: ['targets[0].name: is required'],
  },
  {
    rule: 'target name duplicate',
    yaml: `targets:\n  - ${T}\n  - {name: other, baseUrl: "http://h/v1", model: m}\n  - ${T}\n${PROBES}`,
    expected: ['targets[2].name: duplicate of targets[0].name "local"'],
  },
  {
    rule: 'unknown target key with suggestion',
    yaml: target('baseURL: "http://x"'),
    expected: ['targets[0].baseURL: unknown key (did you mean baseUrl?)'],
  },
  {
    rule: 'snake_case key suggestion',
    yaml: target('api_key_env: X'),
    expected: ['targets[0].api_key_env: unknown key (did you mean apiKeyEnv?)'],
  },
  { rule: 'baseUrl required', yaml: `targets:\n  - {name: local, model: m}\n${PROBES}`, expected: ['targets[0].baseUrl: is required'] },
  {
    rule: 'baseUrl not a URL',
    yaml: `targets:\n  - {name: local, model: m, baseUrl: "localhost:8000"}\n${PROBES}`,
    expected: ['targets[0].baseUrl: must be an http or https URL'],
  },
  {
    rule: 'baseUrl wrong scheme',
    yaml: `targets:\n  - {name: local, model: m, baseUrl: "ftp://h/v1"}\n${PROBES}`,
    expected: ['targets[0].baseUrl: must be an http or https URL'],
  },
  {
    rule: 'baseUrl with credentials',
    yaml: `targets:\n  - {name: local, model: m, baseUrl: "https://user:pw@h/v1"}\n${PROBES}`,
    expected: ['targets[0].baseUrl: must not contain credentials (user:password@); use apiKeyEnv, apiKeyFile or headers'],
  },
  {
    rule: 'baseUrl with query',
    yaml: `targets:\n  - {name: local, model: m, baseUrl: "https://h/v1?x=1"}\n${PROBES}`,
    expected: ['targets[0].baseUrl: must not contain a query string or fragment (/chat/completions is appended to it)'],
  },
  {
    rule: 'model required',
    yaml: `targets:\n  - {name: local, baseUrl: "http://h/v1"}\n${PROBES}`,
    expected: ['targets[0].model: is required'],
  },
  {
    rule: 'model must be a string',
    yaml: `targets:\n  - {name: local, baseUrl: "http://h/v1", model: [a]}\n${PROBES}`,
    expected: ['targets[0].model: must be a non-empty string'],
  },
  {
    rule: 'apiKeyEnv not set',
    yaml: target('apiKeyEnv: LOCAL_API_KEY'),
    expected: ['targets[0].apiKeyEnv: environment variable LOCAL_API_KEY is not set'],
  },
  {
    rule: 'apiKeyEnv must be a name',
    yaml: target('apiKeyEnv: "sk-abc 123"'),
    expected: ['targets[0].apiKeyEnv: must be the name of an environment variable (letters, digits and _), not the key itself'],
  },
  {
    rule: 'headers must be a mapping',
    yaml: target('headers: [a]'),
    expected: ['targets[0].headers: must be a mapping of header name to string value'],
  },
  {
    rule: 'header value must be a string',
    yaml: target('headers: {X-Retries: 3}'),
    expected: ['targets[0].headers.X-Retries: must be a string (quote numbers and booleans)'],
  },
  {
    rule: 'header name must be a token',
    yaml: target('headers: {"Bad Header": x}'),
    expected: ['targets[0].headers["Bad Header"]: is not a valid HTTP header name'],
  },
  {
    rule: 'header names ignore case',
    yaml: target('headers: {X-A: a, x-a: b}'),
    expected: ['targets[0].headers.x-a: duplicate of header "X-A" (header names ignore case)'],
  },
  {
    rule: 'client-managed header',
    yaml: target('headers: {Content-Length: "1"}'),
    expected: ['targets[0].headers.Content-Length: is managed by the HTTP client and cannot be set'],
  },
  {
    rule: 'daemon-managed header',
    yaml: target('headers: {Accept: text/plain}'),
    expected: ['targets[0].headers.Accept: is managed by the HTTP client and cannot be set'],
  },
  {
    rule: "Accept-Encoding is the daemon's (identity: the stream is read as it arrives)",
    yaml: target('headers: {Accept-Encoding: gzip}'),
    expected: ['targets[0].headers.Accept-Encoding: is managed by the HTTP client and cannot be set'],
  },
  {
    rule: 'Authorization with apiKeyEnv',
    yaml: target('apiKeyEnv: K, headers: {Authorization: "Bearer x"}'),
    env: { K: 'k' },
    expected: ['targets[0].headers.Authorization: conflicts with apiKeyEnv, which sets Authorization: Bearer <key>; use one of them'],
  },
  {
    rule: 'apiKeyEnv and apiKeyFile',
    yaml: target('apiKeyEnv: K, apiKeyFile: /run/secrets/key'),
    env: { K: 'k' },
    files: { '/run/secrets/key': null },
    expected: ['targets[0]: set either apiKeyEnv or apiKeyFile, not both'],
  },
  {
    rule: 'apiKeyFile missing',
    yaml: target('apiKeyFile: /run/secrets/key'),
    expected: ['targets[0].apiKeyFile: file "/run/secrets/key" does not exist'],
  },
  {
    rule: 'apiKeyFile unreadable',
    yaml: target('apiKeyFile: ./key'),
    files: { './key': 'cannot be read (permission denied)' },
    expected: ['targets[0].apiKeyFile: file "./key" cannot be read (permission denied)'],
  },
  {
    rule: 'apiKeyFile that does not look like a path is not shown',
    yaml: target('apiKeyFile: sk-abc123'),
    expected: ['targets[0].apiKeyFile: the file does not exist'],
  },
  {
    rule: 'apiKeyFile must be a string',
    yaml: target('apiKeyFile: 42'),
    expected: ['targets[0].apiKeyFile: must be the path of a file holding the key, not the key itself'],
  },
  {
    rule: 'Authorization with apiKeyFile',
    yaml: target('apiKeyFile: /k, headers: {authorization: "Bearer x"}'),
    files: { '/k': null },
    expected: ['targets[0].headers.authorization: conflicts with apiKeyFile, which sets Authorization: Bearer <key>; use one of them'],
  },
  { rule: 'tls must be a mapping', yaml: httpsTarget('tls: true'), expected: ['targets[0].tls: must be a mapping'] },
  {
    rule: 'tls on an http baseUrl',
    yaml: target('tls: {insecureSkipVerify: false}'),
    expected: ['targets[0].tls: applies only to an https baseUrl, and this one is http'],
  },
  {
    rule: 'tls.caFile missing',
    yaml: httpsTarget('tls: {caFile: /etc/coherency/ca.pem}'),
    expected: ['targets[0].tls.caFile: file "/etc/coherency/ca.pem" does not exist'],
  },
  {
    rule: 'tls.caFile must be a string',
    yaml: httpsTarget('tls: {caFile: true}'),
    expected: ['targets[0].tls.caFile: must be the path of a file holding PEM CA certificates'],
  },
  {
    rule: 'tls.insecureSkipVerify must be boolean',
    yaml: httpsTarget('tls: {insecureSkipVerify: "yes"}'),
    expected: ['targets[0].tls.insecureSkipVerify: must be true or false'],
  },
  {
    rule: 'tls.caFile with insecureSkipVerify',
    yaml: httpsTarget('tls: {caFile: /ca.pem, insecureSkipVerify: true}'),
    files: { '/ca.pem': null },
    expected: [
      'targets[0].tls: set either caFile or insecureSkipVerify: true, not both (no certificate is checked against caFile when verification is skipped)',
    ],
  },
  {
    rule: 'tls unknown key',
    yaml: httpsTarget('tls: {insecure: true}'),
    expected: ['targets[0].tls.insecure: unknown key (did you mean insecureSkipVerify?)'],
  },
  {
    rule: 'target probes unknown name',
    yaml: `targets:\n  - {name: local, baseUrl: "http://h/v1", model: m, probes: [short, huge]}\nprobes:\n  - ${P}\n  - {name: long, prompt: hi, maxTokens: 100}\n`,
    expected: ['targets[0].probes[1]: unknown probe "huge" (known: short, long)'],
  },
  {
    rule: 'target probes duplicate',
    yaml: target('probes: [short, short]'),
    expected: ['targets[0].probes[1]: duplicate of targets[0].probes[0] "short"'],
  },
  {
    rule: 'target probes empty',
    yaml: target('probes: []'),
    expected: ['targets[0].probes: must list at least one probe (leave it out to run every probe)'],
  },
  { rule: 'target probes not a list', yaml: target('probes: short'), expected: ['targets[0].probes: must be a list of probe names'] },
  {
    rule: 'timeouts positive',
    yaml: target('timeouts: {connectSeconds: 0, idleSeconds: -1, totalSeconds: x}'),
    expected: [
      'targets[0].timeouts.connectSeconds: must be a positive number',
      'targets[0].timeouts.idleSeconds: must be a positive number',
      'targets[0].timeouts.totalSeconds: must be a positive number',
    ],
  },
  {
    rule: 'timeouts positive: the run deadline and the output-rate window',
    yaml: target('timeouts: {slowSeconds: 0, runSeconds: -5}'),
    expected: ['targets[0].timeouts.slowSeconds: must be a positive number', 'targets[0].timeouts.runSeconds: must be a positive number'],
  },
  {
    rule: 'timeouts unknown key',
    yaml: target('timeouts: {connect: 5}'),
    expected: ['targets[0].timeouts.connect: unknown key (did you mean connectSeconds?)'],
  },
  // probes
  { rule: 'probes missing', yaml: TARGETS, expected: ['probes: must list at least one probe'] },
  { rule: 'probes empty', yaml: `${TARGETS}probes: []\n`, expected: ['probes: must list at least one probe'] },
  {
    rule: 'probe name pattern',
    yaml: `${TARGETS}probes:\n  - {name: "Long one", prompt: hi, maxTokens: 1}\n`,
    expected: ['probes[0].name: must match [a-z0-9_-]+'],
  },
  {
    rule: 'probe name duplicate',
    yaml: `${TARGETS}probes:\n  - ${P}\n  - ${P}\n`,
    expected: ['probes[1].name: duplicate of probes[0].name "short"'],
  },
  {
    rule: 'unknown probe key',
    yaml: probe('prompt: hi, maxTokens: 1, max_tokens: 5'),
    expected: ['probes[0].max_tokens: unknown key (did you mean maxTokens?)'],
  },
  {
    rule: 'cron step out of range',
    yaml: probe('prompt: hi, maxTokens: 1, schedule: "*/61 * * * *"'),
    expected: [
      'probes[0].schedule: invalid cron expression "*/61 * * * *": minute field "*/61": step 61 is out of 1-59; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  {
    rule: 'cron in words',
    yaml: probe('prompt: hi, maxTokens: 1, schedule: "every 5 minutes"'),
    expected: [
      'probes[0].schedule: invalid cron expression "every 5 minutes": has 3 fields; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  {
    rule: 'invalid cron',
    yaml: probe('prompt: hi, maxTokens: 1, schedule: "61 * * * *"'),
    expected: [
      'probes[0].schedule: invalid cron expression "61 * * * *": minute field "61": 61 is out of 0-59; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  {
    rule: 'cron with too many fields',
    yaml: probe('prompt: hi, maxTokens: 1, schedule: "* * * * * * *"'),
    expected: [
      'probes[0].schedule: invalid cron expression "* * * * * * *": has 7 fields; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  {
    rule: 'schedule must be a string',
    yaml: probe('prompt: hi, maxTokens: 1, schedule: 5'),
    expected: ['probes[0].schedule: must be a cron expression in quotes'],
  },
  {
    rule: 'prompt and messages',
    yaml: probe('prompt: hi, messages: [{role: user, content: x}], maxTokens: 1'),
    expected: ['probes[0]: set either prompt or messages, not both'],
  },
  { rule: 'neither prompt nor messages', yaml: probe('maxTokens: 1'), expected: ['probes[0]: set either prompt or messages'] },
  { rule: 'prompt empty', yaml: probe('prompt: "  ", maxTokens: 1'), expected: ['probes[0].prompt: must be a non-empty string'] },
  {
    rule: 'messages empty',
    yaml: probe('messages: [], maxTokens: 1'),
    expected: ['probes[0].messages: must contain at least one message'],
  },
  {
    rule: 'messages not a list',
    yaml: probe('messages: hi, maxTokens: 1'),
    expected: ['probes[0].messages: must be a list of {role, content}'],
  },
  {
    rule: 'message role',
    yaml: probe('messages: [{role: user, content: a}, {role: bot, content: b}], maxTokens: 1'),
    expected: ['probes[0].messages[1].role: must be one of system, user, assistant'],
  },
  {
    rule: 'message content',
    yaml: probe('messages: [{role: user}], maxTokens: 1'),
    expected: ['probes[0].messages[0].content: is required'],
  },
  {
    rule: 'message unknown key',
    yaml: probe('messages: [{role: user, content: a, text: b}], maxTokens: 1'),
    expected: ['probes[0].messages[0].text: unknown key (known: role, content)'],
  },
  {
    rule: 'messages without user',
    yaml: probe('messages: [{role: system, content: a}], maxTokens: 1'),
    expected: ['probes[0].messages: must contain at least one user message'],
  },
  { rule: 'maxTokens required', yaml: probe('prompt: hi'), expected: ['probes[0].maxTokens: is required'] },
  {
    rule: 'maxTokens positive integer',
    yaml: `${TARGETS}probes:\n  - ${P}\n  - {name: long, prompt: hi, maxTokens: 0}\n`,
    expected: ['probes[1].maxTokens: must be a positive integer'],
  },
  { rule: 'maxTokens integer', yaml: probe('prompt: hi, maxTokens: 10.5'), expected: ['probes[0].maxTokens: must be a positive integer'] },
  {
    rule: 'temperature range',
    yaml: probe('prompt: hi, maxTokens: 1, temperature: 2.5'),
    expected: ['probes[0].temperature: must be a number from 0 to 2'],
  },
  {
    rule: 'samples range',
    yaml: probe('prompt: hi, maxTokens: 1, samples: 21'),
    expected: ['probes[0].samples: must be an integer from 1 to 20'],
  },
  {
    rule: 'samples positive',
    yaml: probe('prompt: hi, maxTokens: 1, samples: 0'),
    expected: ['probes[0].samples: must be an integer from 1 to 20'],
  },
  {
    rule: 'minTokens non-negative',
    yaml: probe('prompt: hi, maxTokens: 1, minTokens: -1'),
    expected: ['probes[0].minTokens: must be a non-negative integer'],
  },
  {
    rule: 'minTokens at most maxTokens',
    yaml: probe('prompt: hi, maxTokens: 100, minTokens: 101'),
    expected: ['probes[0].minTokens: must not exceed maxTokens (100)'],
  },
  {
    rule: 'thresholds must be a mapping',
    yaml: probe('prompt: hi, maxTokens: 1, thresholds: [1]'),
    expected: ['probes[0].thresholds: must be a mapping of threshold name to number'],
  },
  {
    rule: 'threshold value',
    yaml: probe(`prompt: hi, maxTokens: 1, thresholds: {${Object.keys(DEFAULT_THRESHOLDS)[0]}: -1}`),
    expected: [`probes[0].thresholds.${Object.keys(DEFAULT_THRESHOLDS)[0]}: must be a finite number >= 0`],
  },
  {
    rule: 'threshold infinite',
    yaml: probe(`prompt: hi, maxTokens: 1, thresholds: {${Object.keys(DEFAULT_THRESHOLDS)[0]}: .inf}`),
    expected: [`probes[0].thresholds.${Object.keys(DEFAULT_THRESHOLDS)[0]}: must be a finite number >= 0`],
  },
  {
    rule: 'unknown threshold',
    yaml: probe('prompt: hi, maxTokens: 1, thresholds: {notAThresholdAtAll: 1}'),
    expected: [`probes[0].thresholds.notAThresholdAtAll: unknown threshold (known: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')})`],
  },
  {
    rule: 'probe timeouts',
    yaml: probe('prompt: hi, maxTokens: 1, timeouts: {idleSeconds: 0}'),
    expected: ['probes[0].timeouts.idleSeconds: must be a positive number'],
  },
  {
    rule: 'extraBody must be a mapping',
    yaml: probe('prompt: hi, maxTokens: 1, extraBody: [1]'),
    expected: ['probes[0].extraBody: must be a mapping of request body fields'],
  },
  {
    rule: 'extraBody reserved keys',
    yaml: probe('prompt: hi, maxTokens: 1, extraBody: {model: x, messages: [], stream: false, stream_options: {}, max_tokens: 5}'),
    expected: [
      "probes[0].extraBody.model: cannot be overridden: set by the daemon from the target's model",
      'probes[0].extraBody.messages: cannot be overridden: set by the daemon from prompt or messages',
      'probes[0].extraBody.stream: cannot be overridden: set by the daemon (probes always stream)',
      'probes[0].extraBody.stream_options: cannot be overridden: set by the daemon (usage reporting is required)',
      'probes[0].extraBody.max_tokens: cannot be overridden: set by the daemon from maxTokens',
    ],
  },
  {
    rule: 'maxResponseBytes too small',
    yaml: probe('prompt: hi, maxTokens: 1, maxResponseBytes: 100'),
    expected: ['probes[0].maxResponseBytes: must be an integer of at least 65536 (bytes)'],
  },
  {
    rule: 'abortOnCollapse must be boolean',
    yaml: probe('prompt: hi, maxTokens: 1, abortOnCollapse: "no"'),
    expected: ['probes[0].abortOnCollapse: must be true or false'],
  },
  {
    rule: 'runOnStart must be boolean',
    yaml: probe('prompt: hi, maxTokens: 1, runOnStart: "yes"'),
    expected: ['probes[0].runOnStart: must be true or false'],
  },
  {
    rule: 'extraBody non-JSON number',
    yaml: probe('prompt: hi, maxTokens: 1, extraBody: {top_p: .nan}'),
    expected: ['probes[0].extraBody.top_p: must be plain JSON data (no .inf, .nan or special YAML types)'],
  },
];

describe('parseConfig: one rule per row', () => {
  for (const row of INVALID) {
    it(row.rule, () => {
      assert.deepEqual(errors(row.yaml, row.env, row.files), row.expected);
    });
  }
});

describe('parseConfig: YAML syntax', () => {
  it('reports line and column, with the source in front', () => {
    const r = parseConfig('targets:\n  - name: a\n  - name: b\n name: c\n', { env: {}, source: 'cfg.yaml' });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.errors.length >= 1);
    assert.match(r.ok ? '' : (r.errors[0] ?? ''), /^cfg\.yaml: YAML syntax error at line 4, column 1: /);
  });

  it('refuses duplicate keys', () => {
    assert.deepEqual(errors(`${BASE}server: {port: 1, port: 2}\n`), ['YAML syntax error at line 5, column 19: Map keys must be unique']);
  });

  it('refuses several documents', () => {
    assert.deepEqual(errors(`${BASE}---\n${BASE}`), [
      'YAML syntax error at line 5, column 1: the file must hold a single YAML document (remove the extra ---)',
    ]);
  });

  it('treats an unknown tag as an error', () => {
    assert.deepEqual(errors(`server: {host: !secret x}\n${BASE}`), ['YAML syntax error at line 1, column 16: Unresolved tag: !secret']);
  });
});

describe('parseConfig: whole document', () => {
  it('reports every problem at once, in document order of sections', () => {
    const yaml = [
      'server: {port: 99999}',
      'targets:',
      '  - {name: Bad, baseUrl: "ftp://x", model: m, probes: [nope]}',
      'probes:',
      '  - {name: short, prompt: hi, maxTokens: -5, samples: 100}',
      '',
    ].join('\n');
    assert.deepEqual(errors(yaml), [
      'server.port: must be an integer from 0 to 65535',
      'targets[0].name: must match [a-z0-9_-]+',
      'targets[0].baseUrl: must be an http or https URL',
      'targets[0].probes[0]: unknown probe "nope" (known: short)',
      'probes[0].maxTokens: must be a positive integer',
      'probes[0].samples: must be an integer from 1 to 20',
    ]);
  });
});

describe('parseConfig: defaults and normalisation', () => {
  it('applies every default', () => {
    const c = ok(BASE);
    assert.deepEqual(c.server, DEFAULTS.server);
    assert.deepEqual(c.simulator, DEFAULTS.simulator);
    assert.deepEqual(c.metrics, DEFAULTS.metrics);
    assert.equal(c.metrics.detail, 'basic');
    assert.equal(ok(`metrics: {detail: full}\n${BASE}`).metrics.detail, 'full');
    assert.deepEqual(c.storage, { dir: null, maxRuns: 500, maxBytes: 268435456, historySize: 200, historyMaxBytes: 67108864 });
    assert.deepEqual(c.server, {
      host: '127.0.0.1',
      port: 9464,
      authToken: null,
      metricsAuth: false,
      maxConcurrentManualRuns: 4,
      maxConcurrentSamples: 16,
      allowedHosts: null,
      trustProxy: [],
    });
    assert.deepEqual(c.targets, [
      {
        name: 'local',
        baseUrl: 'http://127.0.0.1:8000/v1',
        model: 'm',
        apiKeyEnv: null,
        apiKeyFile: null,
        headers: {},
        probes: ['short'],
        timeouts: { connectSeconds: 10, idleSeconds: 60, totalSeconds: 1800, slowSeconds: 60 },
        tls: { caFile: null, insecureSkipVerify: false },
        maxTokensField: null,
        omit: [],
        modelAliases: [],
        reasoning: null,
      },
    ]);
    assert.deepEqual(c.probes, [
      {
        name: 'short',
        schedule: null,
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 100,
        temperature: 0.6,
        samples: 1,
        minTokens: 0,
        thresholds: {},
        verdict: 'rules',
        verdictModel: null,
        timeouts: {},
        extraBody: {},
        abortOnCollapse: true,
        runOnStart: true,
        maxResponseBytes: null,
        temperatures: null,
        expect: null,
        logprobs: false,
      },
    ]);
  });

  it('treats empty (null) optional sections and keys as absent', () => {
    const c = ok(
      `server:\nsimulator:\nmetrics:\n${TARGETS}probes:\n  - {name: short, prompt: hi, maxTokens: 1, schedule: null, thresholds: null}\n`,
    );
    assert.deepEqual(c.server, DEFAULTS.server);
    assert.equal(c.probes[0]?.schedule, null);
  });

  it('removes trailing slashes from baseUrl', () => {
    const c = ok(`targets:\n  - {name: a, model: m, baseUrl: "https://api.example.com/v1/"}\n${PROBES}`);
    assert.equal(c.targets[0]?.baseUrl, 'https://api.example.com/v1');
  });

  it('defaults a target to every probe, in file order', () => {
    const c = ok(`${TARGETS}probes:\n  - {name: b, prompt: x, maxTokens: 1}\n  - {name: a, prompt: x, maxTokens: 1}\n`);
    assert.deepEqual(c.targets[0]?.probes, ['b', 'a']);
  });

  it('merges target timeouts over the defaults and keeps probe timeouts partial', () => {
    const c = ok(
      `targets:\n  - {name: a, model: m, baseUrl: "http://h", timeouts: {idleSeconds: 5}}\nprobes:\n  - {name: p, prompt: x, maxTokens: 1, timeouts: {totalSeconds: 90}}\n`,
    );
    assert.deepEqual(c.targets[0]?.timeouts, { connectSeconds: 10, idleSeconds: 5, totalSeconds: 1800, slowSeconds: 60 });
    assert.deepEqual(c.probes[0]?.timeouts, { totalSeconds: 90 });
  });

  it('accepts 5- and 6-field cron expressions', () => {
    const c = ok(
      `${TARGETS}probes:\n  - {name: a, prompt: x, maxTokens: 1, schedule: "*/30 * * * *"}\n  - {name: b, prompt: x, maxTokens: 1, schedule: "*/15 * * * * *"}\n`,
    );
    assert.deepEqual(
      c.probes.map((p) => p.schedule),
      ['*/30 * * * *', '*/15 * * * * *'],
    );
  });

  it('keeps messages, thresholds and extraBody', () => {
    const key = Object.keys(DEFAULT_THRESHOLDS)[0] as string;
    const c = ok(
      probe(
        `messages: [{role: system, content: s}, {role: user, content: u}], maxTokens: 10, minTokens: 10, thresholds: {${key}: 0.5}, extraBody: {top_p: 0.9, chat_template_kwargs: {enable_thinking: false}}`,
      ),
    );
    const p = c.probes[0];
    assert.deepEqual(p?.messages, [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
    ]);
    assert.deepEqual(p?.thresholds, { [key]: 0.5 });
    assert.deepEqual(p?.extraBody, { top_p: 0.9, chat_template_kwargs: { enable_thinking: false } });
    assert.equal(p?.minTokens, 10);
  });

  it('accepts every threshold name the analyzer declares', () => {
    const all = Object.keys(DEFAULT_THRESHOLDS)
      .map((k) => `${k}: 1`)
      .join(', ');
    const c = ok(probe(`prompt: x, maxTokens: 1, thresholds: {${all}}`));
    assert.deepEqual(Object.keys(c.probes[0]?.thresholds ?? {}), Object.keys(DEFAULT_THRESHOLDS));
  });

  it('keeps apiKeyEnv as a name when the variable is set, and headers as given', () => {
    const c = ok(target('apiKeyEnv: LOCAL_API_KEY, headers: {X-Team: infra}'), { LOCAL_API_KEY: 'k' });
    assert.equal(c.targets[0]?.apiKeyEnv, 'LOCAL_API_KEY');
    assert.deepEqual(c.targets[0]?.headers, { 'X-Team': 'infra' });
  });

  it('reports an empty apiKeyEnv variable', () => {
    assert.deepEqual(errors(target('apiKeyEnv: LOCAL_API_KEY'), { LOCAL_API_KEY: '' }), [
      'targets[0].apiKeyEnv: environment variable LOCAL_API_KEY is empty',
    ]);
  });
});

describe('parseConfig: auth, storage, key files, TLS', () => {
  it('reads server.authToken (trimmed) and the other server keys', () => {
    const c = ok(`server: {authToken: "  ${TOKEN} ", metricsAuth: true, maxConcurrentManualRuns: 10}\n${BASE}`);
    assert.deepEqual(c.server, {
      host: '127.0.0.1',
      port: 9464,
      authToken: TOKEN,
      metricsAuth: true,
      maxConcurrentManualRuns: 10,
      maxConcurrentSamples: 16,
      allowedHosts: null,
      trustProxy: [],
    });
  });

  it('reads server.allowedHosts and server.trustProxy', () => {
    const c = ok(
      `server: {allowedHosts: [coherency.example.com, "*.svc.cluster.local", Box1.], trustProxy: [10.0.0.0/8, "::1", 127.0.0.1]}\n${BASE}`,
    );
    assert.deepEqual(c.server.allowedHosts, ['coherency.example.com', '*.svc.cluster.local', 'Box1.']);
    assert.deepEqual(c.server.trustProxy, ['10.0.0.0/8', '::1', '127.0.0.1']);
    assert.deepEqual(ok(`server: {allowedHosts: ["*"]}\n${BASE}`).server.allowedHosts, ['*']);
  });

  it('takes the token from COHERENCY_AUTH_TOKEN when the file has none', () => {
    assert.equal(ok(BASE, { COHERENCY_AUTH_TOKEN: `${TOKEN}\n` }).server.authToken, TOKEN);
    assert.equal(ok(`server: {authToken: null, metricsAuth: true}\n${BASE}`, { COHERENCY_AUTH_TOKEN: TOKEN }).server.metricsAuth, true);
  });

  it('lets the file value win over COHERENCY_AUTH_TOKEN (which is then not checked)', () => {
    const c = ok(`server: {authToken: "${TOKEN}"}\n${BASE}`, { COHERENCY_AUTH_TOKEN: 'short' });
    assert.equal(c.server.authToken, TOKEN);
  });

  it('reads storage', () => {
    const c = ok(
      `storage: {dir: /var/lib/coherency, maxRuns: 50, maxBytes: 1048576, historySize: 10000, historyMaxBytes: 1048576}\n${BASE}`,
    );
    assert.deepEqual(c.storage, {
      dir: '/var/lib/coherency',
      maxRuns: 50,
      maxBytes: 1048576,
      historySize: 10000,
      historyMaxBytes: 1048576,
    });
    assert.equal(ok(`storage: {historyMaxBytes: 17179869184}\n${BASE}`).storage.historyMaxBytes, 17179869184);
  });

  it('keeps apiKeyFile as a path and checks it at load', () => {
    const seen: string[] = [];
    const r = parseConfig(target('apiKeyFile: /run/secrets/vllm/api-key'), {
      env: {},
      checkFile: (path) => {
        seen.push(path);
        return null;
      },
    });
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
    assert.equal(r.config.targets[0]?.apiKeyFile, '/run/secrets/vllm/api-key');
    assert.equal(r.config.targets[0]?.apiKeyEnv, null);
    assert.deepEqual(seen, ['/run/secrets/vllm/api-key']);
  });

  it('reads tls on an https target', () => {
    const c = ok(
      `targets:\n  - {name: a, model: m, baseUrl: "HTTPS://h/v1", tls: {caFile: /etc/ca.pem}}\n  - {name: b, model: m, baseUrl: "https://h/v1", tls: {insecureSkipVerify: true}}\n${PROBES}`,
      {},
      { '/etc/ca.pem': null },
    );
    assert.deepEqual(
      c.targets.map((t) => t.tls),
      [
        { caFile: '/etc/ca.pem', insecureSkipVerify: false },
        { caFile: null, insecureSkipVerify: true },
      ],
    );
  });

  it('reads abortOnCollapse', () => {
    assert.equal(ok(probe('prompt: hi, maxTokens: 1, abortOnCollapse: false')).probes[0]?.abortOnCollapse, false);
  });
});

describe('parseConfig: secrets', () => {
  const CANARY = 'sk-canary-7f3a9c0d1e';

  it('never puts an apiKeyEnv value in the config', () => {
    const c = ok(target('apiKeyEnv: LOCAL_API_KEY'), { LOCAL_API_KEY: CANARY });
    assert.ok(!JSON.stringify(c).includes(CANARY));
  });

  it('never echoes secret values in errors', () => {
    const yaml = [
      'targets:',
      `  - {name: "BAD", model: m, baseUrl: "https://user:${CANARY}@h/v1", apiKeyEnv: MISSING_KEY,`,
      `     headers: {Authorization: "Bearer ${CANARY}", X-Api-Key: "${CANARY}", "bad name": "${CANARY}"}}`,
      `  - {name: b, model: m, baseUrl: "https://h/v1?key=${CANARY}", api_key: "${CANARY}", apiKeyEnv: "${CANARY}"}`,
      'probes:',
      `  - {name: short, prompt: hi, maxTokens: 1, extraBody: {model: "${CANARY}"}}`,
      '',
    ].join('\n');
    const errs = errors(yaml, { OTHER: CANARY });
    assert.ok(errs.length >= 5, errs.join('\n'));
    for (const e of errs) assert.ok(!e.includes(CANARY), `secret leaked in: ${e}`);
  });

  it('never echoes an auth token or a key pasted where a path belongs', () => {
    const yaml = [
      `server: {authToken: "${CANARY} x", metricsAuth: true}`,
      'targets:',
      `  - {name: a, model: m, baseUrl: "http://h/v1", apiKeyFile: "${CANARY}", tls: {caFile: "${CANARY}"}}`,
      `  - {name: b, model: m, baseUrl: "https://h/v1", apiKeyEnv: K, apiKeyFile: "${CANARY}/x", tls: {caFile: "-----BEGIN CERTIFICATE-----\\n${CANARY}"}}`,
      PROBES,
    ].join('\n');
    const errs = errors(yaml, { K: CANARY });
    assert.ok(errs.length >= 6, errs.join('\n'));
    for (const e of errs) assert.ok(!e.includes(CANARY), `secret leaked in: ${e}`);

    for (const env of [{ COHERENCY_AUTH_TOKEN: `${CANARY} x` }, { COHERENCY_AUTH_TOKEN: 'sk-9' }]) {
      for (const e of errors(BASE, env)) assert.ok(!e.includes(env.COHERENCY_AUTH_TOKEN), `token leaked in: ${e}`);
    }
  });
});
