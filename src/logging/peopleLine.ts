/**
 * How a log object reads on one line in the pretty format, for a person at a terminal. The
 * JSON lines keep every field as they are; only their pretty rendering is folded here:
 * the keys that name a sample (target, probe, sample, run) become a prefix, and a finished
 * sample becomes one sentence with its verdict, its key figure and a link to its page.
 */

/** The message of the line the probes log for each finished sample. */
export const SAMPLE_FINISHED = 'sample finished';

/** Keys folded into the prefix of every line. */
const NAMING_KEYS = ['target', 'probe', 'sample', 'run'] as const;
/** Keys folded into a finished sample's sentence. */
const SAMPLE_KEYS = ['verdict', 'reasons', 'findings', 'outputTokens', 'durationSeconds', 'error', 'temperature'] as const;

/** Every key that isFolded may leave out of a line. */
export const FOLDABLE_KEYS: readonly string[] = [...NAMING_KEYS, ...SAMPLE_KEYS];

export type LogObject = Record<string, unknown>;

interface LoggedFinding {
  kind?: unknown;
  severity?: unknown;
  atToken?: unknown;
  rule?: unknown;
}

/** Whether the pretty line says `key` of `log` in its message already (so it is not printed again). */
export function isFolded(log: LogObject, key: string): boolean {
  if ((NAMING_KEYS as readonly string[]).includes(key)) return typeof log['target'] === 'string';
  return log['msg'] === SAMPLE_FINISHED && (SAMPLE_KEYS as readonly string[]).includes(key);
}

/** "target/probe #N" of a line about a sample or a run; '' for the daemon's own lines. */
function prefix(log: LogObject): string {
  if (typeof log['target'] !== 'string') return '';
  const pair = typeof log['probe'] === 'string' ? `${log['target']}/${log['probe']}` : log['target'];
  return typeof log['sample'] === 'number' ? `${pair} #${log['sample']}` : pair;
}

/**
 * The failed checks of a conformance sample, from its reasons (`conformance: streaming failed
 * (buffered): ...`, one per failed check): "streaming: buffered, tools: index_collision".
 */
function failedChecks(log: LogObject): string {
  const reasons = Array.isArray(log['reasons']) ? log['reasons'] : [];
  return reasons
    .map((r) => (typeof r === 'string' ? /^conformance: ([a-z]+) failed \(([a-z_]+)\)/.exec(r) : null))
    .filter((m) => m !== null)
    .map((m) => `${m[1]}: ${m[2]}`)
    .join(', ');
}

/** What a finished sample comes down to: its verdict, then the finding or error that made it, then its size and time. */
function sampleSentence(log: LogObject, baseUrl: string | null): string {
  const verdict = String(log['verdict'] ?? '?');
  const findings = (Array.isArray(log['findings']) ? log['findings'] : []) as LoggedFinding[];
  const worst = findings.find((f) => f.severity === verdict) ?? findings[0];
  const why =
    typeof log['error'] === 'string'
      ? log['error']
      : worst?.kind === 'conformance' && failedChecks(log) !== ''
        ? failedChecks(log)
        : worst && typeof worst.kind === 'string'
          ? `${worst.kind}${typeof worst.rule === 'string' ? ` (${worst.rule})` : ''}${typeof worst.atToken === 'number' && worst.atToken >= 0 ? ` from token ${worst.atToken}` : ''}`
          : '';
  const figures = [
    ...(typeof log['temperature'] === 'number' ? [`temperature ${log['temperature']}`] : []),
    ...(typeof log['outputTokens'] === 'number' ? [`${log['outputTokens']} tokens`] : []),
    ...(typeof log['durationSeconds'] === 'number' ? [`${log['durationSeconds']} s`] : []),
  ];
  const run = typeof log['run'] === 'string' ? `${baseUrl ?? ''}/runs/${encodeURIComponent(log['run'])}` : '';
  return [`${verdict}${why ? `: ${why}` : ''}`, figures.length ? `(${figures.join(', ')})` : '', run].filter(Boolean).join(' ');
}

/**
 * Control chars (C0 but tab, DEL, C1) and the bidirectional overrides, which a terminal would
 * obey rather than show: a target's error text, a model name or a header it sent, written raw,
 * could clear the screen, rewrite the line before it or reorder what it says.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `s` with each char a terminal would act on written as its escape (`\u001b`), as the JSON lines have it. */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The message part of the pretty line. `baseUrl` (the daemon's address, once known) makes a run's link complete. */
export function peopleMessage(log: LogObject, baseUrl: string | null): string {
  const msg = typeof log['msg'] === 'string' ? log['msg'] : '';
  const head = prefix(log);
  const body = msg === SAMPLE_FINISHED ? sampleSentence(log, baseUrl) : msg;
  // the other fields are printed as JSON (escaped); the message is printed as it is
  return terminalSafe(head ? `${head} ${body}` : body);
}
