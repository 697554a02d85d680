// Only what every command needs is imported here; each command loads its own modules when it
// runs (the analyzer, the config validator, the simulator, pino, the daemon's HTTP stack), so
// `--help` and `analyze` do not pay for what they never use.
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Logger } from 'pino';
import type { Config } from './config/types.js';
import type { LogFormat } from './logging/createLogger.js';
import { withoutQuery } from './config/withoutQuery.js';
import { releaseEarlySignals, SignalGate, type EarlySignals } from './signalGate.js';
import { terminalSafeWriter } from './oneShot/terminalSafe.js';
import { VERSION } from './version.js';

/** Where a command writes; swapped in tests. */
export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  readStdin?: () => Promise<Uint8Array>;
  /** Signals bin/coherency-exporter.js recorded before this module loaded. */
  earlySignals?: EarlySignals;
  /** Whether stderr is a terminal (probe's live progress); default: process.stderr.isTTY. */
  stderrIsTTY?: boolean;
  /**
   * stderr as given, for the live progress view's own cursor movements (it makes each line it
   * draws terminal-safe itself); main() makes stdout and stderr terminal-safe.
   */
  rawStderr?: (s: string) => void;
}

const defaultIO: CliIO = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
};

/** Exit codes: 0 ok, 1 a check failed, 2 bad usage or bad input (unreadable file, invalid config). */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const;

interface Command {
  summary: string;
  usage: string;
  /** Help text that needs a module to write (the simulator's scenarios), added by --help. */
  moreHelp?: () => Promise<string>;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals: boolean;
  run(values: Record<string, string | boolean | string[] | undefined>, positionals: string[], io: CliIO): Promise<number | 'running'>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'run the exporter: scheduled probes, /metrics, /probe (default command)',
    usage: `coherency-exporter serve [--config FILE | --demo] [--host H] [--port N] [--log-level LEVEL]
                         [--log-format json|pretty] [--shard-index I --shard-count N]

  --config FILE     YAML config. Where the config comes from, first match wins:
                      1. --config FILE
                      2. $COHERENCY_CONFIG (a file)
                      3. $OPENAI_BASE_URL: that endpoint, no file (model from
                         $COHERENCY_MODEL or $OPENAI_MODEL, key from $OPENAI_API_KEY or
                         $OPENAI_API_KEY_FILE); it wins over the demo file below
                      4. config/coherency.yaml (the demo: a built-in simulator)
                    The first log line says which one was used. With none of them (the
                    container image ships no config/coherency.yaml) serve says where to
                    put one and exits 2.
  --demo            the demo instead: a built-in simulator and targets on it that show
                    every verdict (config/demo.yaml in the image, else config/coherency.yaml)
  --host H          listen address (overrides server.host)
  --port N          listen port (overrides server.port)
  --log-level L     trace, debug, info, warn, error (default: $LOG_LEVEL or info);
                    a failing sample logs at warn, an erroring one at error, ok at info
  --log-format F    json (one object per line, ISO times) or pretty (default: $LOG_FORMAT,
                    else pretty on a terminal and json otherwise)
  --shard-index I   with --shard-count N: probe only the targets whose name hashes to
  --shard-count N   shard I of N ($COHERENCY_SHARD_INDEX, $COHERENCY_SHARD_COUNT; I may be
                    a StatefulSet pod name such as coherency-exporter-2)

Signals: SIGHUP reloads the config file; SIGTERM or SIGINT stops (a second one exits at once).`,
    options: {
      config: { type: 'string', short: 'c' },
      demo: { type: 'boolean' },
      host: { type: 'string' },
      port: { type: 'string', short: 'p' },
      'log-level': { type: 'string' },
      'log-format': { type: 'string' },
      'shard-index': { type: 'string' },
      'shard-count': { type: 'string' },
    },
    allowPositionals: false,
    async run(values, _pos, io) {
      // First: a SIGHUP from a config-reloader sidecar or a SIGTERM during start-up is held
      // and applied once the daemon is up, instead of killing it (SIGHUP's default action).
      const gate = new SignalGate(process, io.earlySignals);
      const code = await startServe(values, io, gate);
      if (code !== 'running') gate.dispose();
      return code;
    },
  },
  simulate: {
    summary: 'run the built-in OpenAI-compatible simulator alone',
    usage: `coherency-exporter simulate [--host H] [--port N] [--tokens-per-second N] [--api-key-env VAR] [--release-after N [--degrade-to MODEL] [--release-speedup F]]

  --host H                 listen address (default 127.0.0.1)
  --port N                 listen port (default 8089)
  --tokens-per-second N    streaming rate; 0 = as fast as possible (default 2000)
  --api-key-env VAR        require Authorization: Bearer <the value of VAR> on every request
  --release-after N        say release 1 (Server header, system_fingerprint, GET /version) for N chat
                           requests, then release 2, whose answers come from --degrade-to
  --degrade-to MODEL       the scenario release 2 answers with (default collapse-sentence@200)
  --release-speedup F      release 2 streams F times faster (default 1): faster but broken

The model name picks the scenario:
`,
    moreHelp: async () => {
      const { SCENARIO_MAP } = await import('./simulator/scenarios/index.js');
      const { DEFECTS } = await import('./simulator/defects.js');
      const { BUILDS } = await import('./simulator/builds.js');
      return [
        ...[...SCENARIO_MAP.values()].map((sc) => `  ${sc.name.padEnd(24)} ${sc.description}`),
        '',
        'A base URL of http://HOST:PORT/defect/NAME[+NAME...]/v1 answers with these defects',
        '(what a broken server or proxy does; the conformance probe tells each apart):',
        ...DEFECTS.map((d) => `  ${d.name.padEnd(24)} ${d.description}`),
        '',
        'A base URL of http://HOST:PORT/build/NAME@N/v1 is another build of the same model, which',
        'departs from the output of /v1 at token N (for `probe --baseline`; /defect/... may follow):',
        ...BUILDS.map((b) => `  ${b.name.padEnd(24)} ${b.description}`),
      ].join('\n');
    },
    options: {
      host: { type: 'string' },
      port: { type: 'string', short: 'p' },
      'tokens-per-second': { type: 'string' },
      'api-key-env': { type: 'string' },
      'release-after': { type: 'string' },
      'degrade-to': { type: 'string' },
      'release-speedup': { type: 'string' },
    },
    allowPositionals: false,
    async run(values, _pos, io) {
      const port = parsePort(String(values['port'] ?? '8089'));
      const releaseAfter = values['release-after'] === undefined ? null : Number(values['release-after']);
      if (releaseAfter !== null && !(Number.isInteger(releaseAfter) && releaseAfter >= 0)) {
        io.stderr(`error: --release-after: must be a whole number >= 0\n`);
        return EXIT.USAGE;
      }
      for (const flag of ['degrade-to', 'release-speedup'] as const) {
        if (values[flag] !== undefined && releaseAfter === null) {
          io.stderr(`error: --${flag} goes with --release-after\n`);
          return EXIT.USAGE;
        }
      }
      const speedup = values['release-speedup'] === undefined ? null : Number(values['release-speedup']);
      if (speedup !== null && !(Number.isFinite(speedup) && speedup > 0)) {
        io.stderr(`error: --release-speedup: must be a number > 0\n`);
        return EXIT.USAGE;
      }
      const rate = Number(values['tokens-per-second'] ?? '2000');
      if (port === null) {
        io.stderr(`error: --port: must be an integer from 0 to 65535\n`);
        return EXIT.USAGE;
      }
      if (!Number.isFinite(rate) || rate < 0) {
        io.stderr(`error: --tokens-per-second: must be a number >= 0\n`);
        return EXIT.USAGE;
      }
      const keyEnv = values['api-key-env'] === undefined ? null : String(values['api-key-env']);
      const apiKey = keyEnv === null ? undefined : io.env[keyEnv]?.trim();
      if (keyEnv !== null && !apiKey) {
        io.stderr(`error: --api-key-env: environment variable ${/^[A-Z_][A-Z0-9_]{0,63}$/.test(keyEnv) ? keyEnv : '(named)'} is not set\n`);
        return EXIT.USAGE;
      }
      const { startSimulator, createReleaseSwitch } = await import('./simulator/index.js');
      const release =
        releaseAfter === null
          ? null
          : {
              after: releaseAfter,
              ...(values['degrade-to'] !== undefined ? { degradeTo: String(values['degrade-to']) } : {}),
              ...(speedup !== null ? { speedup } : {}),
            };
      if (release) {
        try {
          createReleaseSwitch(release);
        } catch (err) {
          io.stderr(`error: --degrade-to: ${(err as Error).message.replace(/^release\.degradeTo: /, '')}\n`);
          return EXIT.USAGE;
        }
      }
      const sim = await startSimulator({
        host: String(values['host'] ?? '127.0.0.1'),
        port,
        tokensPerSecond: rate,
        ...(apiKey ? { apiKey } : {}),
        ...(release ? { release } : {}),
      });
      io.stdout(`simulator listening on ${sim.url}\n`);
      // SIGTERM/SIGINT as serve stops (graceful, a second one at once); nothing to reload, so SIGHUP keeps node's default
      const gate = new SignalGate(process, undefined, { reloads: false });
      gate.useLogger(await makeLogger(io));
      gate.attach({ stop: () => sim.close(), reload: async () => undefined });
      return 'running';
    },
  },
  analyze: {
    summary: 'analyse a text or a captured SSE stream for degeneration (exit 0 ok/warn, 1 fail, 2 unreadable)',
    usage: `coherency-exporter analyze [FILE|-] [--json] [--channel content|reasoning|both] [--finish-reason R]
                           [--verdict rules|learned] [--verdict-model FILE]

  FILE              plain text, or a captured chat-completion stream (its "data:" lines,
                    e.g. from curl -N); - or no FILE reads standard input
  --json            print {verdict, findings, reasons, metrics} as JSON instead of a report
  --channel C       for streams: content, reasoning, or both together (default both)
  --finish-reason R how the generation ended, for plain text (a captured stream says it
                    itself): "length" means it was cut by the token limit, which inside a
                    loop or flood is evidence of collapse whatever its size
  --verdict V       who decides: rules (default; the learned model's score is shown as
                    information) or learned (the model with the hard rules, see
                    docs/detection.md "The learned verdict")
  --verdict-model F a model retrained with npm run train (default: the committed one)

Exit status: 0 ok or warn, 1 fail, 2 unreadable input or model.`,
    options: {
      json: { type: 'boolean' },
      channel: { type: 'string' },
      'finish-reason': { type: 'string' },
      verdict: { type: 'string' },
      'verdict-model': { type: 'string' },
    },
    allowPositionals: true,
    async run(values, positionals, io) {
      const channel = String(values['channel'] ?? 'both');
      if (channel !== 'content' && channel !== 'reasoning' && channel !== 'both') {
        io.stderr(`error: --channel: must be content, reasoning or both, got "${channel}"\n`);
        return EXIT.USAGE;
      }
      if (positionals.length > 1) {
        io.stderr('error: analyze takes at most one FILE\n');
        return EXIT.USAGE;
      }
      const file = positionals[0] ?? '-';
      let text: string;
      try {
        // bounded and non-blocking: a FIFO or /dev/zero given as FILE is refused, not read without end
        const { readBoundedFile } = await import('./files/readBoundedFile.js');
        const bytes = file === '-' ? await (io.readStdin ?? readStdin)() : await readBoundedFile(file, { maxBytes: ANALYZE_MAX_BYTES });
        if (bytes.length > ANALYZE_MAX_BYTES) throw new Error(`more than ${ANALYZE_MAX_BYTES} bytes`);
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        const why = e.code === 'TOO_LARGE' ? `more than ${ANALYZE_MAX_BYTES} bytes` : e instanceof TypeError ? 'not UTF-8 text' : e.message;
        io.stderr(`error: cannot read ${file === '-' ? 'standard input' : file}: ${why}\n`);
        return EXIT.USAGE;
      }
      const finishReason = values['finish-reason'] === undefined ? null : String(values['finish-reason']);
      if (finishReason !== null && !/^[a-z_]{1,40}$/.test(finishReason)) {
        io.stderr(`error: --finish-reason: a finish_reason such as length or stop, got "${finishReason.slice(0, 40)}"\n`);
        return EXIT.USAGE;
      }
      const mode = String(values['verdict'] ?? 'rules');
      if (mode !== 'rules' && mode !== 'learned') {
        io.stderr(`error: --verdict: must be rules or learned, got "${mode.slice(0, 40)}"\n`);
        return EXIT.USAGE;
      }
      let verdictModel: import('./core/verdictModel.js').VerdictModel | undefined;
      if (values['verdict-model'] !== undefined) {
        const { readVerdictModelFile } = await import('./config/readVerdictModelFile.js');
        try {
          verdictModel = await readVerdictModelFile(String(values['verdict-model']));
        } catch (err) {
          io.stderr(`error: --verdict-model ${(err as Error).message}\n`);
          return EXIT.USAGE;
        }
      }
      const { analyzeCapture } = await import('./core/analyzeCapture.js');
      const result = analyzeCapture(text, channel, undefined, finishReason, {
        verdict: mode,
        score: true,
        ...(verdictModel ? { verdictModel } : {}),
      });
      const { analysis } = result;
      if (values['json']) {
        const { verdict, findings, reasons, metrics, score } = analysis;
        const { findingView } = await import('./http/findingView.js');
        const shown = findings.map(findingView);
        io.stdout(`${JSON.stringify({ verdict, findings: shown, reasons, metrics, score, finishReason: result.finishReason }, null, 2)}\n`);
      } else {
        const title = `${file === '-' ? 'stdin' : file} (${result.format === 'sse' ? `captured stream, ${channel}` : 'text'})`;
        const { formatReport } = await import('./core/formatReport.js');
        io.stdout(formatReport(analysis, { title }));
      }
      for (const note of result.notes) io.stderr(`note: ${note}\n`);
      return analysis.verdict === 'fail' ? EXIT.FAILED : EXIT.OK;
    },
  },
  probe: {
    summary: 'run probes once and exit (0 passed, 1 failed, 2 bad usage or config, 3 target error); for deploy pipelines',
    usage: `coherency-exporter probe --config FILE [--target T ...] [--probe P ...] [--kind K] [COMMON]
coherency-exporter probe --base-url URL --model M [--api-key-env VAR] [--prompt TEXT | --prompt-file F]
                         [--max-tokens N] [--min-tokens N] [--temperature T] [--seed N] [--samples N] [COMMON]
coherency-exporter probe --kind conformance --base-url URL --model M [--api-key-env VAR]
                         [--checks LIST] [--reasoning] [--model-alias NAME ...] [--max-tokens N] [COMMON]

  --config FILE      run every target x probe of FILE (each target's probes), or those chosen
  --target T         with --target and --probe (both repeatable), and --kind (the probes of
  --probe P          that kind); a FILE with simulator.enabled (the demo, config/coherency.yaml)
                     starts the simulator for the run
  --base-url URL     without --config: one endpoint ($OPENAI_BASE_URL), model ($OPENAI_MODEL;
  --model M          $COHERENCY_MODEL wins), key from the variable --api-key-env names (default
  --api-key-env VAR  OPENAI_API_KEY when set); the long default prompt, 8000 tokens, unless
                     --prompt/--prompt-file, --max-tokens, --min-tokens, --temperature, --samples
  --seed N           the request's seed (extraBody.seed in a config); with --temperature 0 a
                     baseline keeps the output's tokens and a gate reports where it departs
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
  --fail-on L        warn or fail (default fail): the verdict that makes the exit status 1
  --concurrency N    samples streaming at once (default 1; a contamination probe's requests
                     always stream together)
  --quiet            no progress and no report: the exit status only (--json still prints)
BASELINES (docs/baselines.md):
  --save-baseline F  write this run's figures to F (atomically): per target x probe the verdicts,
                     failed share, collapse onset, recall, conformance checks, TTFT, inter-token
                     latency, what the target said of itself, and at temperature 0 with a seed
                     the output's tokens. No API key is ever written.
  --baseline F       run the same probes and compare with F: a table of before | after | change
                     (in --json: "comparison"), and at temperature 0 the first token where the
                     output departs. Exit 1 when a figure is worse than its tolerance, 3 when
                     more samples errored than in F and nothing regressed, else 0 (a failure F
                     has too is no regression). F of another tool or format version, or of
                     other targets, probes or probe settings, is refused (exit 2) before the run.

Progress goes to stderr: on a terminal a live line per running sample, else one line when
each sample starts and ends. The report (or --json) goes to stdout.

Exit status: 0 every sample passed, 1 a sample failed (or warned, with --fail-on warn),
2 bad usage or config (or a refused or unreadable baseline), 3 a target error (connect, HTTP
status, timeout, ...) and nothing failed. With --baseline, as above.
A conformance run is one sample: 0 when every check passed or was skipped, 1 when one failed,
3 when none got an answer.`,
    moreHelp: async () => {
      const { TOLERANCE_ROWS } = await import('./baseline/tolerances.js');
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
      'save-baseline': { type: 'string' },
      baseline: { type: 'string' },
      'max-failed-rise': { type: 'string' },
      'max-onset-drop': { type: 'string' },
      'max-recall-drop': { type: 'string' },
      'max-ttft-rise': { type: 'string' },
      'max-itl-rise': { type: 'string' },
      'fail-on-divergence': { type: 'boolean' },
    },
    allowPositionals: false,
    async run(values, _pos, io) {
      const { probeCommand } = await import('./oneShot/probeCommand.js');
      return probeCommand(values, {
        ...io,
        stderrIsTTY: io.stderrIsTTY ?? process.stderr.isTTY === true,
        ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
      });
    },
  },
  healthcheck: {
    summary: 'ask a running exporter whether it is alive (exit 0 healthy, 1 not); for container HEALTHCHECKs',
    usage: `coherency-exporter healthcheck [--config FILE] [--host H] [--port N] [--timeout SECONDS]

GETs /-/healthy on the address serve listens on: server.host and server.port of the config
serve would pick (--config, $COHERENCY_CONFIG, $OPENAI_BASE_URL, config/coherency.yaml), read
without validating the rest, so a daemon that kept its last good config after a rejected
reload still passes. A wildcard listen address (0.0.0.0, ::) is asked on loopback. --host and
--port override, as they do for serve: give it the same ones.

  --timeout S   seconds to wait for the answer (default 3)

Exit status: 0 healthy, 1 no answer or not 200, 2 bad usage.`,
    options: {
      config: { type: 'string', short: 'c' },
      host: { type: 'string' },
      port: { type: 'string', short: 'p' },
      timeout: { type: 'string' },
    },
    allowPositionals: false,
    async run(values, _pos, io) {
      const port = values['port'] === undefined ? undefined : parsePort(String(values['port']));
      if (port === null) {
        io.stderr(`error: --port: must be an integer from 0 to 65535, got "${String(values['port'])}"\n`);
        return EXIT.USAGE;
      }
      const timeout = Number(values['timeout'] ?? '3');
      if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 300) {
        io.stderr(`error: --timeout: seconds, more than 0 and at most 300, got "${String(values['timeout'])}"\n`);
        return EXIT.USAGE;
      }
      const { listenAddress } = await import('./config/listenAddress.js');
      const { resolveConfigSource } = await import('./config/loadConfig.js');
      const source = resolveConfigSource({
        ...(values['config'] !== undefined ? { configFlag: String(values['config']) } : {}),
        env: io.env,
      });
      const address = await listenAddress(source);
      const host = values['host'] !== undefined ? String(values['host']) : address.host;
      const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port ?? address.port}/-/healthy`;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(timeout * 1000) });
        await res.arrayBuffer();
        if (res.status === 200) return EXIT.OK;
        io.stderr(`unhealthy: ${url} answered HTTP ${res.status}\n`);
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        const why = e.name === 'TimeoutError' ? `no answer within ${timeout} s` : (e.cause?.code ?? e.message);
        io.stderr(`unhealthy: ${url}: ${why} (address from ${address.from})\n`);
      }
      return EXIT.FAILED;
    },
  },
  schema: {
    summary: 'print the JSON Schema of the config file, for editors (yaml-language-server) and CI',
    usage: `coherency-exporter schema

Prints the JSON Schema (draft 2020-12) of the config file on stdout: the keys, types,
ranges, enums and defaults that check-config checks, written from the same declaration.
Editors that validate YAML against a schema (VS Code's YAML extension, any editor with
yaml-language-server) then complete keys and flag mistakes as you type, given this first
line in the config file:

  # yaml-language-server: $schema=./coherency.schema.json

The package ships the same file as config/coherency.schema.json. check-config checks more
than the schema can say (cron fields, files, environment variables, probe names).

Exit status: 0.`,
    options: {},
    allowPositionals: false,
    async run(_values, _pos, io) {
      const { configSchemaText } = await import('./config/configSchema.js');
      io.stdout(configSchemaText());
      return EXIT.OK;
    },
  },
  'check-config': {
    summary: 'validate a config file and list every problem (exit 0 valid, 2 invalid)',
    usage: `coherency-exporter check-config FILE [--strict]

Reads FILE as serve would and lists every problem at once, each with its path
(targets[0].baseUrl: ...), then exits. It checks the YAML, unknown keys (with a
suggestion), values and their ranges, cron schedules field by field, that every
probe a target names exists, and that apiKeyFile and tls.caFile can be read.

An apiKeyEnv variable that is not set is a warning here, so a pipeline can check the
file without the secret; serve and a reload still refuse it.

  --strict   treat an unset apiKeyEnv variable as an error, as serve does

Exit status: 0 valid (warnings are printed to stderr), 2 invalid or unreadable.
Example (CI):  coherency-exporter check-config config/coherency.yaml`,
    options: { strict: { type: 'boolean' } },
    allowPositionals: true,
    async run(values, positionals, io) {
      const file = positionals[0];
      if (!file || positionals.length > 1) {
        io.stderr('error: check-config takes exactly one FILE\n');
        return EXIT.USAGE;
      }
      const { loadConfig } = await import('./config/loadConfig.js');
      const result = await loadConfig(file, io.env, { missingSecrets: values['strict'] ? 'error' : 'warning' });
      if (!result.ok) {
        io.stderr(`${file}: ${plural(result.errors.length, 'problem')}\n`);
        for (const e of result.errors) io.stderr(`  ${e}\n`);
        return EXIT.USAGE;
      }
      for (const w of result.warnings ?? []) io.stderr(`warning: ${w} (an error at serve; --strict makes it one here)\n`);
      const c = result.config;
      io.stdout(`${file}: valid (${plural(c.targets.length, 'target')}, ${plural(c.probes.length, 'probe')})\n`);
      return EXIT.OK;
    },
  },
};

const SOURCE_NAMES: Readonly<Record<string, string>> = {
  flag: '--config',
  COHERENCY_CONFIG: '$COHERENCY_CONFIG',
  OPENAI_BASE_URL: '$OPENAI_BASE_URL',
  default: 'default',
  demo: '--demo',
};

/**
 * What start-up says of a config (never a key, nor a query string that may hold one): one
 * line at info that names where the config came from and what it probes, and the whole list
 * of targets and probes for the debug line. `shadowed` is the default file that an
 * OPENAI_BASE_URL set in the shell won over (the demo would otherwise have run).
 */
export function configSummary(config: Config, from: string, path: string | null, shadowed: string | null = null) {
  const configSource = SOURCE_NAMES[from] ?? from;
  const names = (list: string[]) => (list.length > 4 ? `${list.slice(0, 4).join(', ')}, …` : list.join(', '));
  const target = config.targets[0];
  const where =
    from === 'OPENAI_BASE_URL' && target
      ? `$OPENAI_BASE_URL: ${withoutQuery(target.baseUrl)}, model ${target.model}, ${
          target.apiKeyEnv ? `key from $${target.apiKeyEnv}` : target.apiKeyFile ? `key from the file ${target.apiKeyFile}` : 'no API key'
        }`
      : `${path ?? '?'} (${configSource === 'default' ? 'the default file' : configSource})`;
  const probes = config.probes.map((p) => `${p.name} (${p.maxTokens} tokens, ${p.schedule ? `"${p.schedule}"` : 'manual'})`);
  const message = [
    `config from ${where}`,
    `${plural(config.targets.length, 'target')} (${names(config.targets.map((t) => t.name))}), ${plural(config.probes.length, 'probe')}: ${names(probes)}`,
    ...(config.simulator.enabled ? [`starts the built-in simulator on ${config.simulator.host}:${config.simulator.port}`] : []),
    ...(shadowed ? [`${shadowed} is not used while OPENAI_BASE_URL is set (unset it, or pass --config FILE)`] : []),
  ].join('; ');
  return {
    summary: { configSource, configPath: path, targets: config.targets.length, probes: config.probes.length },
    message,
    dump: {
      targets: config.targets.map((t) => ({ name: t.name, baseUrl: withoutQuery(t.baseUrl), model: t.model, probes: t.probes })),
      probes: config.probes.map((p) => ({ name: p.name, schedule: p.schedule ?? 'manual', maxTokens: p.maxTokens, samples: p.samples })),
    },
  };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return `coherency-exporter ${VERSION}: probes LLM endpoints with long streaming generations and exports repetition-collapse figures to Prometheus.

Usage: coherency-exporter [COMMAND] [OPTIONS]   (COMMAND defaults to serve)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}

Run 'coherency-exporter COMMAND --help' for a command's options.
`;
}

/**
 * Runs a command. Resolves to an exit code, or to 'running' for a long-running
 * command (serve, simulate) that keeps the process alive until a signal.
 */
export async function main(argv: string[], io: CliIO = defaultIO, earlySignals?: EarlySignals): Promise<number | 'running'> {
  if (earlySignals) io = { ...io, earlySignals };
  // Everything printed can hold text a target chose (its /version, model names, error messages,
  // output excerpts): control characters and bidi controls are shown escaped, never obeyed.
  io = { ...io, stdout: terminalSafeWriter(io.stdout), stderr: terminalSafeWriter(io.stderr), rawStderr: io.rawStderr ?? io.stderr };
  const first = argv[0];
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout(usage());
    return EXIT.OK;
  }
  if (first === '--version' || first === '-V' || first === 'version') {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  const explicit = first !== undefined && !first.startsWith('-');
  const name = explicit ? first : 'serve';
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`error: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})\n`);
    return EXIT.USAGE;
  }
  const rest = explicit ? argv.slice(1) : argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.usage}${command.moreHelp ? `\n${await command.moreHelp()}` : ''}\n`);
    return EXIT.OK;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: command.allowPositionals, strict: true });
  } catch (err) {
    io.stderr(`error: ${(err as Error).message}\nUsage: ${command.usage.split('\n')[0]}\n`);
    return EXIT.USAGE;
  }
  if (name !== 'serve') {
    const stopped = releaseEarlySignals(io.earlySignals);
    if (stopped !== null) return stopped;
  }
  return command.run(parsed.values as Record<string, string | boolean | string[] | undefined>, parsed.positionals, io);
}

/** serve, after its signal gate is up: validates the flags, loads the config, starts the daemon. */
async function startServe(
  values: Record<string, string | boolean | string[] | undefined>,
  io: CliIO,
  gate: SignalGate,
): Promise<number | 'running'> {
  const { parseShard } = await import('./scheduler/shard.js');
  const { pino } = await import('pino');
  const { pickLogFormat } = await import('./logging/createLogger.js');
  const shard = parseShard(
    (values['shard-index'] as string | undefined) ?? io.env['COHERENCY_SHARD_INDEX'],
    (values['shard-count'] as string | undefined) ?? io.env['COHERENCY_SHARD_COUNT'],
  );
  if (typeof shard === 'string') {
    io.stderr(`error: --shard-index/--shard-count: ${shard}\n`);
    return EXIT.USAGE;
  }
  const port = values['port'] === undefined ? undefined : parsePort(String(values['port']));
  if (port === null) {
    io.stderr(`error: --port: must be an integer from 0 to 65535, got "${String(values['port'])}"\n`);
    return EXIT.USAGE;
  }
  const level = (values['log-level'] as string | undefined) ?? io.env['LOG_LEVEL'] ?? 'info';
  if (!(level in pino.levels.values) && level !== 'silent') {
    io.stderr(`error: log level "${level}" (--log-level or LOG_LEVEL): use one of ${Object.keys(pino.levels.values).join(', ')}, silent\n`);
    return EXIT.USAGE;
  }
  const format = pickLogFormat(values['log-format'] as string | undefined, io.env, process.stdout.isTTY === true);
  if (typeof format !== 'string') {
    io.stderr(`error: ${format.error}\n`);
    return EXIT.USAGE;
  }
  if (values['demo'] && values['config'] !== undefined) {
    io.stderr('error: --demo and --config: give one (--demo runs the built-in simulator demo)\n');
    return EXIT.USAGE;
  }
  const logger = await makeLogger(io, level, format);
  gate.useLogger(logger);
  const loaded = await readConfig(values['config'] as string | undefined, io, values['demo'] === true);
  if (!loaded) return EXIT.USAGE;
  // One line that says which config was picked (--config, $COHERENCY_CONFIG, $OPENAI_BASE_URL
  // or the default file) and what it holds, so a surprise is seen at start, not at the first alert;
  // every target and probe at debug.
  const said = configSummary(loaded.config, loaded.from, loaded.path, loaded.shadowed);
  logger.info(said.summary, said.message);
  logger.debug(said.dump, 'config in use');
  // loaded on demand: analyze and check-config start without the daemon's HTTP stack
  const { startDaemon } = await import('./daemon.js');
  const daemon = await startDaemon({
    config: loaded.config,
    configPath: loaded.path,
    logger,
    env: io.env,
    shard,
    ...(values['host'] ? { host: String(values['host']) } : {}),
    ...(port !== undefined ? { port } : {}),
  }).catch((err: unknown) => {
    // A host that does not resolve, a port in use or not allowed: one line, exit 2.
    if (!(err instanceof Error) || err.name !== 'ListenError') throw err;
    io.stderr(`error: ${err.message}\n`);
    return null;
  });
  if (!daemon) return EXIT.USAGE;
  gate.attach({ stop: () => daemon.close(), reload: () => daemon.reload() });
  return 'running';
}

async function readConfig(
  flag: string | undefined,
  io: CliIO,
  demo: boolean,
): Promise<{ config: Config; path: string | null; from: string; shadowed: string | null } | null> {
  const { defaultConfigPath, loadConfig, resolveConfigSource } = await import('./config/loadConfig.js');
  const source = resolveConfigSource({ ...(flag !== undefined ? { configFlag: flag } : {}), demo, env: io.env });
  if (source.kind === 'file' && source.from === 'default' && !existsSync(source.path)) {
    // No config anywhere (the container image without a mounted file): say where one goes.
    io.stderr(
      `error: no config: none of --config, $COHERENCY_CONFIG or $OPENAI_BASE_URL is set, and ${source.path} does not exist.\n` +
        `  Mount or write your config there (docker run -v "$PWD/coherency.yaml:${source.path}:ro" ...), pass --config FILE,\n` +
        '  or set OPENAI_BASE_URL and OPENAI_MODEL to probe one endpoint; --demo runs the built-in simulator demo.\n',
    );
    return null;
  }
  const result =
    source.kind === 'file' ? await loadConfig(source.path, io.env) : (await import('./config/configFromEnv.js')).configFromEnv(io.env);
  const fallback = source.kind === 'env' ? defaultConfigPath(process.cwd()) : null;
  const shadowed = fallback !== null && existsSync(fallback) ? relativeToCwd(fallback) : null;
  if (result.ok) return { config: result.config, path: source.kind === 'file' ? source.path : null, from: source.from, shadowed };
  const where = source.kind === 'file' ? source.path : 'environment (OPENAI_BASE_URL)';
  io.stderr(`error: invalid config from ${where}:\n`);
  for (const e of result.errors) io.stderr(`  ${e}\n`);
  return null;
}

/** A path as a person typed it: relative to the working directory when under it. */
function relativeToCwd(path: string): string {
  const cwd = `${process.cwd()}${sep}`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}

/** Largest text `analyze` reads, from a file or standard input: a generation of a million tokens fits several times. */
const ANALYZE_MAX_BYTES = 64 * 1024 * 1024;

/** Standard input up to one byte past ANALYZE_MAX_BYTES (the caller refuses more): `< /dev/zero` ends. */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total > ANALYZE_MAX_BYTES) break;
  }
  return Buffer.concat(chunks);
}

function parsePort(s: string): number | null {
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n <= 65535 ? n : null;
}

async function makeLogger(io: CliIO, level?: string, format?: LogFormat): Promise<Logger> {
  const { createLogger, pickLogFormat } = await import('./logging/createLogger.js');
  const picked = format ?? pickLogFormat(undefined, io.env, process.stdout.isTTY === true);
  return createLogger({ level: level ?? io.env['LOG_LEVEL'] ?? 'info', format: typeof picked === 'string' ? picked : 'json' });
}
