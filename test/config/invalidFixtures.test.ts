/**
 * One broken config file per rule, test/fixtures/config/invalid-<rule>.yaml, each loaded through
 * loadConfig and paired here with exactly the errors it must produce (blackbox_exporter's
 * testdata/invalid-*.yml habit). The rules are those readSection enforces from configSpec.ts
 * (unknown keys, types, ranges, enums, patterns, lengths, list and map rules, required keys,
 * exactlyOne, noneWhen, atMostOne, onlyWhen, notWhen) and the hand checks of validateConfig
 * (hosts, CIDR ranges, the token from the environment, unique names, URLs, environment
 * variables, files, cron, headers, the verdict model, arithmetic between keys). A file without a
 * row here, or a row without its file, fails.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { repoPath } from '../helpers/repoRoot.js';

const DIR = repoPath('test', 'fixtures', 'config');

interface Row {
  errors: string[];
  /** The environment the file is loaded with (apiKeyEnv variables, COHERENCY_AUTH_TOKEN); default none. */
  env?: Record<string, string>;
  /** Files the fake file system holds: path → why it cannot be used (null = readable). Others do not exist. */
  files?: Record<string, string | null>;
}

/** invalid-<key>.yaml → the errors it gives, in order. */
const INVALID: Record<string, Row> = {
  root: {
    errors: [
      'config: must be a mapping with the keys server, simulator, metrics, storage, otlp, targets, probes',
      'targets: must list at least one target',
      'probes: must list at least one probe',
    ],
  },
  'empty-document': { errors: ['targets: must list at least one target', 'probes: must list at least one probe'] },
  'unknown-key': { errors: ['target: unknown key (did you mean targets?)'] },
  'unknown-top-level-key-without-suggestion': {
    errors: ['logging: unknown key (known: server, simulator, metrics, storage, otlp, targets, probes)'],
  },
  'not-a-mapping': { errors: ['server: must be a mapping'] },
  range: { errors: ['server.port: must be an integer from 0 to 65535'] },
  'server-port-negative': { errors: ['server.port: must be an integer from 0 to 65535'] },
  'server-port-as-string': { errors: ['server.port: must be an integer from 0 to 65535'] },
  'min-length': { errors: ['server.host: must be a non-empty string'] },
  'server-unknown-key': { errors: ['server.hostname: unknown key (did you mean host?)'] },
  'server-authtoken-too-short': {
    errors: ['server.authToken: must be a string of at least 16 characters, printable ASCII without spaces'],
  },
  'server-authtoken-with-a-space': {
    errors: ['server.authToken: must be a string of at least 16 characters, printable ASCII without spaces'],
  },
  'server-authtoken-must-be-a-string': {
    errors: ['server.authToken: must be a string of at least 16 characters, printable ASCII without spaces'],
  },
  'auth-token-env': {
    errors: ['COHERENCY_AUTH_TOKEN: must be a string of at least 16 characters, printable ASCII without spaces'],
    env: { COHERENCY_AUTH_TOKEN: 'short' },
  },
  'coherency-auth-token-empty': {
    errors: ['COHERENCY_AUTH_TOKEN: is set but empty (unset it to run without auth)'],
    env: { COHERENCY_AUTH_TOKEN: ' ' },
  },
  'metrics-auth': { errors: ['server.metricsAuth: needs a token: set server.authToken or COHERENCY_AUTH_TOKEN'] },
  'allowed-hosts': {
    errors: [
      `server.allowedHosts[0]: must be a host name (letters, digits, '-' and '.', no port), *.domain or *, got "http://x.example"`,
      `server.allowedHosts[1]: must be a host name (letters, digits, '-' and '.', no port), *.domain or *, got "x.example:9464"`,
      'server.allowedHosts[2]: must be a non-empty string',
      'server.allowedHosts[3]: must be a non-empty string',
    ],
  },
  'server-allowedhosts-must-be-a-list-with-a-name': {
    errors: ['server.allowedHosts: must be a list of host names (localhost, coherency.example.com, *.example.com), or [*] to accept any'],
  },
  'server-allowedhosts-empty': {
    errors: ['server.allowedHosts: must name at least one host (or [*] to accept any; leave it out for the default)'],
  },
  cidr: {
    errors: [
      'server.trustProxy[0]: must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got "proxy.local"',
      'server.trustProxy[1]: must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got "10.0.0.0/33"',
      'server.trustProxy[2]: must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got "fd00::/129"',
    ],
  },
  'server-trustproxy-must-be-a-list': {
    errors: ['server.trustProxy: must be a list of IP addresses or CIDR ranges of reverse proxies (127.0.0.1, 10.0.0.0/8)'],
  },
  type: { errors: ['server.metricsAuth: must be true or false'] },
  'server-maxconcurrentmanualruns-at-least-1': { errors: ['server.maxConcurrentManualRuns: must be an integer from 1 to 100'] },
  'server-maxconcurrentmanualruns-at-most-100': { errors: ['server.maxConcurrentManualRuns: must be an integer from 1 to 100'] },
  'server-maxconcurrentsamples-at-least-1': { errors: ['server.maxConcurrentSamples: must be an integer from 1 to 1000'] },
  'server-maxconcurrentsamples-an-integer': { errors: ['server.maxConcurrentSamples: must be an integer from 1 to 1000'] },
  'otlp-endpoint-url': { errors: ['otlp.endpoint: must be an http or https URL (http://127.0.0.1:4318)'] },
  'otlp-maxqueuesize-range': { errors: ['otlp.maxQueueSize: must be an integer from 1 to 1000000'] },
  'storage-must-be-a-mapping': { errors: ['storage: must be a mapping'] },
  'storage-dir-must-be-a-path': { errors: ['storage.dir: must be a directory path, or null to keep runs only in memory'] },
  'storage-dir-must-be-a-string': { errors: ['storage.dir: must be a directory path, or null to keep runs only in memory'] },
  'storage-maxruns-positive-integer': { errors: ['storage.maxRuns: must be a positive integer'] },
  'storage-maxbytes-positive-integer': { errors: ['storage.maxBytes: must be a positive integer (bytes)'] },
  'storage-historysize-range': { errors: ['storage.historySize: must be an integer from 1 to 10000'] },
  'storage-historymaxbytes-below-1-mib': {
    errors: [
      'storage.historyMaxBytes: must be an integer from 1048576 (1 MiB) to 17179869184 (16 GiB) (bytes of output text kept in memory)',
    ],
  },
  'storage-historymaxbytes-above-16-gib': {
    errors: [
      'storage.historyMaxBytes: must be an integer from 1048576 (1 MiB) to 17179869184 (16 GiB) (bytes of output text kept in memory)',
    ],
  },
  'storage-historymaxbytes-integer': {
    errors: [
      'storage.historyMaxBytes: must be an integer from 1048576 (1 MiB) to 17179869184 (16 GiB) (bytes of output text kept in memory)',
    ],
  },
  'storage-unknown-key': { errors: ['storage.directory: unknown key (known: dir, maxRuns, maxBytes, historySize, historyMaxBytes)'] },
  'simulator-enabled-must-be-boolean': { errors: ['simulator.enabled: must be true or false'] },
  'simulator-port-range': { errors: ['simulator.port: must be an integer from 0 to 65535'] },
  'simulator-tokenspersecond-not-negative': { errors: ['simulator.tokensPerSecond: must be a number >= 0 (0 = as fast as possible)'] },
  'simulator-port': { errors: ['simulator.port: must differ from server.port (8089)'] },
  'degenerationwindow-range': { errors: ['metrics.degenerationWindow: must be an integer from 1 to 1000'] },
  'degenerationwindow-too-large': { errors: ['metrics.degenerationWindow: must be an integer from 1 to 1000'] },
  enum: { errors: ['metrics.detail: must be basic (about 100 series per target and probe) or full (every figure and channel)'] },
  'metrics-detail-not-a-string': {
    errors: ['metrics.detail: must be basic (about 100 series per target and probe) or full (every figure and channel)'],
  },
  'targets-missing': { errors: ['targets: must list at least one target'] },
  'min-items': { errors: ['targets: must list at least one target'] },
  'not-a-list': { errors: ['targets: must be a list'] },
  'target-not-a-mapping': { errors: ['targets[0]: must be a mapping'] },
  pattern: { errors: ['targets[0].name: must match [a-z0-9_-]+'] },
  required: { errors: ['targets[0].name: is required'] },
  'duplicate-name': { errors: ['targets[2].name: duplicate of targets[0].name "local"'] },
  'unknown-target-key-with-suggestion': { errors: ['targets[0].baseURL: unknown key (did you mean baseUrl?)'] },
  'snake-case-key-suggestion': { errors: ['targets[0].api_key_env: unknown key (did you mean apiKeyEnv?)'] },
  'baseurl-required': { errors: ['targets[0].baseUrl: is required'] },
  'baseurl-not-a-url': { errors: ['targets[0].baseUrl: must be an http or https URL'] },
  url: { errors: ['targets[0].baseUrl: must be an http or https URL'] },
  'baseurl-with-credentials': {
    errors: ['targets[0].baseUrl: must not contain credentials (user:password@); use apiKeyEnv, apiKeyFile or headers'],
  },
  'baseurl-with-query': {
    errors: ['targets[0].baseUrl: must not contain a query string or fragment (/chat/completions is appended to it)'],
  },
  'model-required': { errors: ['targets[0].model: is required'] },
  'model-must-be-a-string': { errors: ['targets[0].model: must be a non-empty string'] },
  env: { errors: ['targets[0].apiKeyEnv: environment variable LOCAL_API_KEY is not set'] },
  'apikeyenv-must-be-a-name': {
    errors: ['targets[0].apiKeyEnv: must be the name of an environment variable (letters, digits and _), not the key itself'],
  },
  'headers-must-be-a-mapping': { errors: ['targets[0].headers: must be a mapping of header name to string value'] },
  'header-value-must-be-a-string': { errors: ['targets[0].headers.X-Retries: must be a string (quote numbers and booleans)'] },
  'map-key-pattern': { errors: ['targets[0].headers["Bad Header"]: is not a valid HTTP header name'] },
  'duplicate-header': { errors: ['targets[0].headers.x-a: duplicate of header "X-A" (header names ignore case)'] },
  'map-forbidden-key': { errors: ['targets[0].headers.Content-Length: is managed by the HTTP client and cannot be set'] },
  'daemon-managed-header': { errors: ['targets[0].headers.Accept: is managed by the HTTP client and cannot be set'] },
  'accept-encoding-is-the-daemon-s-identity-the': {
    errors: ['targets[0].headers.Accept-Encoding: is managed by the HTTP client and cannot be set'],
  },
  'authorization-conflict': {
    errors: ['targets[0].headers.Authorization: conflicts with apiKeyEnv, which sets Authorization: Bearer <key>; use one of them'],
    env: { K: 'k' },
  },
  'at-most-one': {
    errors: ['targets[0]: set either apiKeyEnv or apiKeyFile, not both'],
    env: { K: 'k' },
    files: { '/run/secrets/key': null },
  },
  file: { errors: ['targets[0].apiKeyFile: file "/run/secrets/key" does not exist'] },
  'apikeyfile-unreadable': {
    errors: ['targets[0].apiKeyFile: file "./key" cannot be read (permission denied)'],
    files: { './key': 'cannot be read (permission denied)' },
  },
  'apikeyfile-that-does-not-look-like-a-path-is': { errors: ['targets[0].apiKeyFile: the file does not exist'] },
  'apikeyfile-must-be-a-string': { errors: ['targets[0].apiKeyFile: must be the path of a file holding the key, not the key itself'] },
  'authorization-with-apikeyfile': {
    errors: ['targets[0].headers.authorization: conflicts with apiKeyFile, which sets Authorization: Bearer <key>; use one of them'],
    files: { '/k': null },
  },
  'tls-must-be-a-mapping': { errors: ['targets[0].tls: must be a mapping'] },
  'tls-http': { errors: ['targets[0].tls: applies only to an https baseUrl, and this one is http'] },
  'tls-cafile-missing': { errors: ['targets[0].tls.caFile: file "/etc/coherency/ca.pem" does not exist'] },
  'tls-cafile-must-be-a-string': { errors: ['targets[0].tls.caFile: must be the path of a file holding PEM CA certificates'] },
  'tls-insecureskipverify-must-be-boolean': { errors: ['targets[0].tls.insecureSkipVerify: must be true or false'] },
  'tls-both': {
    errors: [
      'targets[0].tls: set either caFile or insecureSkipVerify: true, not both (no certificate is checked against caFile when verification is skipped)',
    ],
    files: { '/ca.pem': null },
  },
  'tls-unknown-key': { errors: ['targets[0].tls.insecure: unknown key (did you mean insecureSkipVerify?)'] },
  'named-in': { errors: ['targets[0].probes[1]: unknown probe "huge" (known: short, long)'] },
  'unique-items': { errors: ['targets[0].probes[1]: duplicate of targets[0].probes[0] "short"'] },
  'target-probes-empty': { errors: ['targets[0].probes: must list at least one probe (leave it out to run every probe)'] },
  'target-probes-not-a-list': { errors: ['targets[0].probes: must be a list of probe names'] },
  'timeouts-positive': {
    errors: [
      'targets[0].timeouts.connectSeconds: must be a positive number',
      'targets[0].timeouts.idleSeconds: must be a positive number',
      'targets[0].timeouts.totalSeconds: must be a positive number',
    ],
  },
  'timeouts-positive-the-run-deadline-and-the': {
    errors: ['targets[0].timeouts.slowSeconds: must be a positive number', 'targets[0].timeouts.runSeconds: must be a positive number'],
  },
  'timeouts-unknown-key': { errors: ['targets[0].timeouts.connect: unknown key (did you mean connectSeconds?)'] },
  'probes-missing': { errors: ['probes: must list at least one probe'] },
  'probes-empty': { errors: ['probes: must list at least one probe'] },
  'probe-name-pattern': { errors: ['probes[0].name: must match [a-z0-9_-]+'] },
  'probe-name-duplicate': { errors: ['probes[1].name: duplicate of probes[0].name "short"'] },
  'unknown-probe-key': { errors: ['probes[0].max_tokens: unknown key (did you mean maxTokens?)'] },
  cron: {
    errors: [
      'probes[0].schedule: invalid cron expression "*/61 * * * *": minute field "*/61": step 61 is out of 1-59; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  'cron-in-words': {
    errors: [
      'probes[0].schedule: invalid cron expression "every 5 minutes": has 3 fields; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  'invalid-cron': {
    errors: [
      'probes[0].schedule: invalid cron expression "61 * * * *": minute field "61": 61 is out of 0-59; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  'cron-with-too-many-fields': {
    errors: [
      'probes[0].schedule: invalid cron expression "* * * * * * *": has 7 fields; expected five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily',
    ],
  },
  'schedule-must-be-a-string': { errors: ['probes[0].schedule: must be a cron expression in quotes'] },
  'exactly-one': { errors: ['probes[0]: set either prompt or messages, not both'] },
  'exactly-one-none': { errors: ['probes[0]: set either prompt or messages'] },
  'prompt-empty': { errors: ['probes[0].prompt: must be a non-empty string'] },
  'messages-empty': { errors: ['probes[0].messages: must contain at least one message'] },
  'messages-not-a-list': { errors: ['probes[0].messages: must be a list of {role, content}'] },
  'message-role': { errors: ['probes[0].messages[1].role: must be one of system, user, assistant'] },
  'message-content': { errors: ['probes[0].messages[0].content: is required'] },
  'message-unknown-key': { errors: ['probes[0].messages[0].text: unknown key (known: role, content)'] },
  'user-message': { errors: ['probes[0].messages: must contain at least one user message'] },
  'maxtokens-required': { errors: ['probes[0].maxTokens: is required'] },
  'maxtokens-positive-integer': { errors: ['probes[1].maxTokens: must be a positive integer'] },
  'maxtokens-integer': { errors: ['probes[0].maxTokens: must be a positive integer'] },
  'temperature-range': { errors: ['probes[0].temperature: must be a number from 0 to 2'] },
  'samples-range': { errors: ['probes[0].samples: must be an integer from 1 to 20'] },
  'samples-positive': { errors: ['probes[0].samples: must be an integer from 1 to 20'] },
  'mintokens-non-negative': { errors: ['probes[0].minTokens: must be a non-negative integer'] },
  'min-tokens-over-max': { errors: ['probes[0].minTokens: must not exceed maxTokens (100)'] },
  'thresholds-must-be-a-mapping': { errors: ['probes[0].thresholds: must be a mapping of threshold name to number'] },
  'threshold-value': { errors: ['probes[0].thresholds.whitespaceRunFail: must be a finite number >= 0'] },
  'threshold-infinite': { errors: ['probes[0].thresholds.whitespaceRunFail: must be a finite number >= 0'] },
  'map-unknown-key': {
    errors: [`probes[0].thresholds.notAThresholdAtAll: unknown threshold (known: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')})`],
  },
  'probe-timeouts': { errors: ['probes[0].timeouts.idleSeconds: must be a positive number'] },
  'extrabody-must-be-a-mapping': { errors: ['probes[0].extraBody: must be a mapping of request body fields'] },
  'extrabody-reserved-keys': {
    errors: [
      `probes[0].extraBody.model: cannot be overridden: set by the daemon from the target's model`,
      'probes[0].extraBody.messages: cannot be overridden: set by the daemon from prompt or messages',
      'probes[0].extraBody.stream: cannot be overridden: set by the daemon (probes always stream)',
      'probes[0].extraBody.stream_options: cannot be overridden: set by the daemon (usage reporting is required)',
      'probes[0].extraBody.max_tokens: cannot be overridden: set by the daemon from maxTokens',
    ],
  },
  'maxresponsebytes-too-small': { errors: ['probes[0].maxResponseBytes: must be an integer of at least 65536 (bytes)'] },
  'abortoncollapse-must-be-boolean': { errors: ['probes[0].abortOnCollapse: must be true or false'] },
  'runonstart-must-be-boolean': { errors: ['probes[0].runOnStart: must be true or false'] },
  'json-value': { errors: ['probes[0].extraBody.top_p: must be plain JSON data (no .inf, .nan or special YAML types)'] },
  // rules no inline case covered
  'none-when': { errors: ['probes[0]: a recall probe builds its own messages: leave out prompt and messages'] },
  'only-when': { errors: ['probes[0].facts: applies to kind recall only (this probe is kind generation)'] },
  'not-when': {
    errors: ['probes[0].samples: does not apply to a conformance probe (it sends its own fixed requests, once per run): leave it out'],
  },
  'whole-list': { errors: ['probes[0].positions: must be a non-empty list of start, middle, end (each at most once)'] },
  'names-unknown': {
    errors: [
      'probes[0].checks: must be a non-empty list of models, chat, fields, reasoning, tools, streaming, limits, auth (each at most once); unknown: "speed"',
    ],
  },
  'max-items': { errors: ['probes[0].temperatures: must be a list of 1 to 8 distinct numbers from 0 to 2'] },
  'at-most-one-at-key': { errors: ['probes[0].temperature: set temperature or temperatures (a sweep), not both'] },
  host: { errors: [`server.host: must be an IP address or a host name (letters, digits, '-' and '.'), got "bad host!"`] },
  'sweep-size': { errors: ['probes[0].temperatures: 3 temperatures x samples 7 = 21 requests per run, more than 20'] },
  'expect-empty': { errors: ['probes[0].expect: sets nothing to check: give keywords, headings, language or more than one'] },
  'expect-language': {
    errors: [
      'probes[0].expect.language: must be an ISO 639-1 code the language identifier knows (am, ar, az, be, bg, bn, ca, cs, da, de, el, en, es, et, eu, fa, fi, fr, gu, he, hi, hr, hu, hy, is, it, ja, ka, kn, ko, ku, lo, lt, lv, ml, mr, ms, nl, no, or, pa, pl, pt, ro, ru, sk, sl, sq, sr, sv, ta, te, th, tl, tr, uk, ur, vi, yo, zh)',
    ],
  },
  keyword: { errors: ['probes[0].expect.keywords[1]: must be a word or phrase (letters or digits)'] },
  'header-value': { errors: ['targets[0].headers.X-A: must not contain line breaks'] },
  'storage-dir': { errors: ['storage.dir: "/proc/coherency-runs" is under /proc, a kernel file system that cannot keep files'] },
  'verdict-model': { errors: ['probes[0].verdictModel: /nonexistent/coherency-model.json: no such file'] },
  'unknown-kind': { errors: ['probes[0].kind: must be one of generation, recall, contamination, conformance, golden'] },
};

describe('config: one invalid file per rule', () => {
  for (const [name, row] of Object.entries(INVALID)) {
    it(name, async () => {
      const files = row.files ?? {};
      const r = await loadConfig(join(DIR, `invalid-${name}.yaml`), row.env ?? {}, {
        checkFile: (path) => (path in files ? (files[path] ?? null) : 'does not exist'),
      });
      assert.deepEqual(r.ok ? [] : r.errors, row.errors);
    });
  }

  it('every invalid-*.yaml has its row and every row its file', () => {
    const onDisk = readdirSync(DIR)
      .filter((f) => /^invalid-.*\.yaml$/.test(f))
      .map((f) => f.slice('invalid-'.length, -'.yaml'.length))
      .sort();
    assert.deepEqual(onDisk, Object.keys(INVALID).sort());
  });
});
