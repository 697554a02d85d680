import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';

export const probe: Command = {
  summary: `run probes once and exit (${EXIT.OK} passed, ${EXIT.FAILED} failed, ${EXIT.USAGE} bad usage or config, ${EXIT.TARGET_ERROR} target error); for deploy pipelines`,
  usage: `coherency-exporter probe --config FILE [--target T ...] [--probe P ...] [--kind K] [COMMON]
coherency-exporter probe --base-url URL --model M [--api API] [--api-key-env VAR] [--prompt TEXT | --prompt-file F]
                         [--max-tokens N] [--min-tokens N] [--temperature T] [--seed N] [--samples N]
                         [--expect-language CODE] [COMMON]
coherency-exporter probe --kind conformance --base-url URL --model M [--api-key-env VAR]
                         [--checks LIST] [--reasoning] [--model-alias NAME ...] [--max-tokens N] [COMMON]

  --config FILE      run every target x probe of FILE (each target's probes), or those chosen
  --target T         with --target and --probe (both repeatable), and --kind (the probes of
  --probe P          that kind); a FILE with simulator.enabled (the demo, config/coherency.yaml)
                     starts the simulator for the run
  --base-url URL     without --config: one endpoint ($OPENAI_BASE_URL), model ($OPENAI_MODEL;
  --model M          $COHERENCY_MODEL wins; none: the one model /models lists), key from the
  --api-key-env VAR  variable --api-key-env names (default OPENAI_API_KEY when set); the long
                     default prompt, 8000 tokens, unless --prompt/--prompt-file,
                     --max-tokens, --min-tokens, --temperature, --samples
  --api API          chat (default: /chat/completions), completions (/completions, a base
                     model) or responses (/responses); the config's targets[].api
  --seed N           the request's seed (extraBody.seed in a config); with --temperature 0 a
                     baseline keeps the output's tokens and a gate reports where it departs
  --expect-language  the language the answers must be in (ISO 639-1: en, ko, zh, ...); an
    CODE             answer mostly in another one fails wrong_language (probes[].expect.language)
  --kind K           generation (default), recall, contamination or conformance: a checklist
                     of what the API must get right (512 tokens a request; prints each check)
  --checks LIST      conformance: the checks to run, comma-separated (default all: models,
                     chat, fields, reasoning, tools, streaming, limits, auth)
  --reasoning        conformance: the model reasons (its reasoning must come in its own field)
  --model-alias N    conformance: another name the answers may give the model (repeatable)
COMMON:
  --json             one JSON document on stdout: {verdict, exitCode, failOn, runs} (samples as /probe)
  --save DIR         per sample, DIR/TARGET/PROBE/sample-N/: output.txt, reasoning.txt, result.json
                     and capture.sse (the stream as received: 'coherency-exporter analyze' re-judges it)
  --fail-on L        warn or fail (default fail): the verdict that makes the exit status ${EXIT.FAILED}
  --concurrency N    samples streaming at once (default 1; a contamination probe's requests
                     always stream together)
  --quiet            no progress and no report: the exit status only (--json still prints)
BASELINES (docs/baselines.md):
  --save-baseline F  write this run's figures to F (atomically): per target x probe the verdicts,
                     failed share, collapse onset, recall, conformance checks, TTFT, inter-token
                     latency, what the target said of itself, and at temperature 0 with a seed
                     the output's tokens. No API key is ever written.
  --repeat N         with --save-baseline: send the requests at temperature 0 with a seed N
                     times (default 2, N x their tokens; 1 to skip) and keep where the build's
                     own outputs depart from each other; --baseline then judges a departure
                     as a change only when it comes earlier than that
  --baseline F       run the same probes and compare with F: a table of before | after | change
                     (in --json: "comparison"), and at temperature 0 the first token where the
                     output departs. Exit ${EXIT.FAILED} when a figure is worse than its tolerance, ${EXIT.TARGET_ERROR} when
                     more samples errored than in F and nothing regressed, else ${EXIT.OK} (a failure F
                     has too is no regression). F of another tool or format version, or of
                     other targets, probes or probe settings, is refused (exit ${EXIT.USAGE}) before the run.
  --no-fingerprint-reads
                     with either: no request beyond the probes' own (a baseline otherwise
                     reads {baseUrl}/models and the server's info endpoints once per target,
                     docs/security.md); what the target said of itself comes from its answers

Requests go through $HTTPS_PROXY / $HTTP_PROXY when set, except to the hosts in $NO_PROXY.
Progress goes to stderr: on a terminal a live line per running sample, else one line when
each sample starts and ends. The report (or --json) goes to stdout.

Exit status: ${EXIT.OK} every sample passed, ${EXIT.FAILED} a sample failed (or warned, with --fail-on warn),
${EXIT.USAGE} bad usage or config (or a refused or unreadable baseline), ${EXIT.TARGET_ERROR} a target error (connect, HTTP
status, timeout, ...) and nothing failed. With --baseline, as above.
A conformance run is one sample: ${EXIT.OK} when every check passed or was skipped, ${EXIT.FAILED} when one failed,
${EXIT.TARGET_ERROR} when none got an answer.`,
  moreHelp: async () => {
    const { TOLERANCE_ROWS } = await import('../../baseline/tolerances.js');
    return [
      '',
      'Tolerances of --baseline: the largest change that passes (fractions: 0.1 is ten points',
      'of a share, or 10% of a figure):',
      ...TOLERANCE_ROWS.map((r) => `  --${`${r.flag} X`.padEnd(20)} ${r.meaning} (default ${r.default ?? 'none: reported only'})`),
      `  --${'fail-on-divergence'.padEnd(20)} an output at temperature 0 that departs fails (default: reported only)`,
      'A conformance check that fails where it did not in the baseline always fails the gate.',
    ].join('\n');
  },
  options: {
    config: { type: 'string', short: 'c' },
    target: { type: 'string', multiple: true },
    probe: { type: 'string', multiple: true },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    api: { type: 'string' },
    'api-key-env': { type: 'string' },
    prompt: { type: 'string' },
    'prompt-file': { type: 'string' },
    'max-tokens': { type: 'string' },
    'min-tokens': { type: 'string' },
    temperature: { type: 'string' },
    samples: { type: 'string' },
    kind: { type: 'string' },
    checks: { type: 'string' },
    reasoning: { type: 'boolean' },
    'model-alias': { type: 'string', multiple: true },
    json: { type: 'boolean' },
    save: { type: 'string' },
    'fail-on': { type: 'string' },
    concurrency: { type: 'string' },
    quiet: { type: 'boolean' },
    seed: { type: 'string' },
    'expect-language': { type: 'string' },
    'save-baseline': { type: 'string' },
    repeat: { type: 'string' },
    baseline: { type: 'string' },
    'max-failed-rise': { type: 'string' },
    'max-onset-drop': { type: 'string' },
    'max-recall-drop': { type: 'string' },
    'max-ttft-rise': { type: 'string' },
    'max-itl-rise': { type: 'string' },
    'fail-on-divergence': { type: 'boolean' },
    'no-fingerprint-reads': { type: 'boolean' },
  },
  allowPositionals: false,
  async run(values, _pos, io) {
    const { probeCommand } = await import('../../oneShot/probeCommand.js');
    return probeCommand(values, {
      ...io,
      stderrIsTTY: io.stderrIsTTY ?? process.stderr.isTTY === true,
      ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
    });
  },
};
