import { resolve, sep } from 'node:path';
import { pino } from 'pino';
import { readProxyEnv } from '../client/proxyEnv.js';
import { readBoundedFile } from '../files/readBoundedFile.js';
import { toJson } from '../http/jsonReply.js';
import { runView } from '../http/runView.js';
import { comparisonTable } from '../baseline/comparisonTable.js';
import { worstVerdict, type RunResult } from '../probe/probeTypes.js';
import { finishBaseline, gateExitCode, planBaseline } from './baselineGate.js';
import { EXIT } from '../cli/exitCodes.js';
import { probeExitCode, type FailOn } from './exitCode.js';
import { configFromFlags, ENDPOINT_FLAGS, kindFlag, modelOfFlags, selectPairs, type ProbeFlagValues } from './probeFlags.js';
import type { ModelSetting } from '../config/chooseServedModel.js';
import { plainProgress, ttyProgress } from './progressView.js';
import { runOneShot } from './runOneShot.js';
import { sampleReport } from './sampleReport.js';
import { saveSample } from './saveSample.js';

/** Stands for the model in the draft config validated before /models is read; never sent. */
const MODEL_PENDING = 'model-read-from-models';

/** The probe command's words for a model it could not pick from /models. */
const PROBE_MODEL_SETTING: ModelSetting = {
  missing: '--model: not given',
  give: 'Pass --model (or set OPENAI_MODEL)',
  example: (model) => `--model ${model}`,
  tryWithout: 'to try it without a server, probe the demo: --config config/coherency.yaml',
};

/** Largest --prompt-file read: a million-token context is about 4 MB of text. */
export const PROMPT_FILE_MAX_BYTES = 16 * 1024 * 1024;

export interface ProbeCommandIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  /** stderr is a terminal: the progress view redraws in place. */
  stderrIsTTY: boolean;
  /** stderr without the escaping of control characters, for the TTY progress view's cursor movements. */
  rawStderr?: (s: string) => void;
  columns?: number;
}

/**
 * Starts the simulator a config enables. Its address already taken (a running demo, or
 * `coherency-exporter simulate`) is said in one line and the probe goes on against whatever
 * listens there.
 */
async function startConfigSimulator(
  sim: { host: string; port: number; tokensPerSecond: number },
  stderr: (s: string) => void,
): Promise<{ close(): Promise<void> } | null> {
  const { startSimulator } = await import('../simulator/index.js');
  try {
    return await startSimulator({ host: sim.host, port: sim.port, tokensPerSecond: sim.tokensPerSecond });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    stderr(
      `note: simulator.enabled: cannot listen on ${sim.host}:${sim.port} (${code}); probing whatever listens there (a running demo or \`coherency-exporter simulate\`?)\n`,
    );
    return null;
  }
}

/** `coherency-exporter probe`: runs probes once, prints a report (or --json) and exits with an EXIT code. */
export async function probeCommand(values: ProbeFlagValues, io: ProbeCommandIO): Promise<number> {
  const usage = (msg: string) => {
    io.stderr(`error: ${msg}\n`);
    return EXIT.USAGE;
  };
  // the proxy variables as runOneShot will read them: a bad one is said before anything is sent
  const proxied = readProxyEnv(io.env);
  if (!proxied.ok) return usage(proxied.error);
  const failOn = String(values['fail-on'] ?? 'fail');
  if (failOn !== 'warn' && failOn !== 'fail') return usage(`--fail-on: warn or fail, got "${failOn}"`);
  const concurrency = Number(values['concurrency'] ?? '1');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
    return usage(`--concurrency: an integer from 1 to 256, got "${String(values['concurrency'])}"`);
  const list = (k: string) => (Array.isArray(values[k]) ? (values[k] as string[]) : []);
  const file = typeof values['config'] === 'string' ? values['config'] : undefined;
  let result;
  if (file !== undefined) {
    const extra = ENDPOINT_FLAGS.filter((f) => values[f] !== undefined);
    if (extra.length) return usage(`--config: cannot be combined with ${extra.map((f) => `--${f}`).join(', ')}`);
    const { loadConfig } = await import('../config/loadConfig.js');
    result = await loadConfig(file, io.env);
  } else {
    if (list('target').length || list('probe').length) return usage('--target and --probe select from a --config file');
    let promptText: string | null = null;
    const promptFile = values['prompt-file'];
    if (typeof promptFile === 'string') {
      try {
        // bounded and non-blocking: a FIFO or /dev/zero is refused at once, never read without end
        promptText = (await readBoundedFile(promptFile, { maxBytes: PROMPT_FILE_MAX_BYTES })).toString('utf8');
      } catch (err) {
        return usage(`--prompt-file: cannot read ${promptFile}: ${(err as Error).message}`);
      }
    }
    result = configFromFlags(values, io.env, promptText);
    if (modelOfFlags(values, io.env) === undefined) {
      // no model named: everything else is checked first, then the endpoint's /models says which
      const draft = configFromFlags(values, io.env, promptText, MODEL_PENDING);
      const target = draft.ok ? draft.config.targets[0] : undefined;
      if (target) {
        const { readServedModelNow } = await import('../daemon/servedModel.js');
        const choice = await readServedModelNow(target, io.env, PROBE_MODEL_SETTING, draft.ok ? draft.config : undefined);
        if (!choice.ok) {
          io.stderr(`error: ${choice.message}\n`);
          return choice.unreachable ? EXIT.TARGET_ERROR : EXIT.USAGE;
        }
        if (values['quiet'] !== true) io.stderr(`model ${choice.model}: ${choice.note}\n`);
        result = configFromFlags(values, io.env, promptText, choice.model);
      } else result = draft;
    }
  }
  if (!result.ok) {
    io.stderr(`error: invalid ${file !== undefined ? `config ${file}` : 'probe flags'}: ${result.errors.join('; ')}\n`);
    return EXIT.USAGE;
  }
  // the flag turns every target's reads off, as targets[].fingerprintReads: false would
  const config =
    values['no-fingerprint-reads'] === true
      ? { ...result.config, targets: result.config.targets.map((t) => ({ ...t, fingerprintReads: false })) }
      : result.config;
  // with --config, --kind picks the probes of that kind (without it, the kind of the one probe built from the flags)
  const kind = kindFlag(values);
  if (!kind.ok) return usage(kind.error);
  const selected = selectPairs(config, list('target'), list('probe'), file !== undefined ? kind.kind : null);
  if (!selected.ok) return usage(selected.errors.join('; '));
  // a baseline that cannot judge this run is refused before anything is sent
  const gate = await planBaseline(values, config, selected.pairs);
  if (typeof gate === 'string') return usage(gate);

  const quiet = values['quiet'] === true;
  const json = values['json'] === true;
  const saveDir = typeof values['save'] === 'string' ? values['save'] : null;
  const view = quiet
    ? plainProgress(() => {})
    : io.stderrIsTTY
      ? ttyProgress(io.rawStderr ?? io.stderr, io.columns)
      : plainProgress(io.stderr);
  const savedTo = new Map<string, string>();
  const saveErrors: string[] = [];
  // A config that starts the built-in simulator (the demo) gets it here too, as serve would.
  const simulator = config.simulator.enabled ? await startConfigSimulator(config.simulator, io.stderr) : null;
  const repeatPairs = gate && gate.repeats > 1 ? gate.repeatPairs : [];
  if (repeatPairs.length && !quiet)
    io.stderr(
      `baseline: the requests at temperature 0 of ${repeatPairs.map((p) => `${p.target}/${p.probe}`).join(', ')} are sent ${gate!.repeats} times (${gate!.repeats}x their tokens) to measure where the build departs from itself; --repeat 1 to skip\n`,
    );
  const repeated: RunResult[][] = [];
  const oneShot = runOneShot({
    config,
    pairs: selected.pairs,
    env: io.env,
    logger: pino({ level: 'silent' }),
    concurrency,
    view,
    captureRaw: saveDir !== null,
    // a baseline keeps what each target says of itself; a plain probe sends nothing beyond its probes
    identify: gate !== null,
    ...(saveDir !== null
      ? {
          onSample: async (target: string, probe: string, sample, capture) => {
            try {
              const saved = await saveSample(saveDir, target, probe, sample, capture);
              savedTo.set(`${target}/${probe}/${sample.index}`, `${saved.where} (${saved.files.join(', ')})`);
            } catch (err) {
              saveErrors.push(`--save ${saveDir}: ${(err as Error).message}`);
            }
          },
        }
      : {}),
  });
  let outcome: Awaited<typeof oneShot>;
  try {
    outcome = await oneShot;
    // the same requests again, quietly: only their outputs are kept, as the build's own spread
    for (let i = 1; i < (gate?.repeats ?? 1) && repeatPairs.length; i++) {
      const again = await runOneShot({
        config,
        pairs: repeatPairs,
        env: io.env,
        logger: pino({ level: 'silent' }),
        concurrency,
        view: plainProgress(() => {}),
        captureRaw: false,
      });
      repeated.push(again.runs);
    }
  } finally {
    await simulator?.close();
  }
  const { runs, identities } = outcome;
  const gated = gate ? await finishBaseline(gate, runs, identities, config, failOn as FailOn, new Date(), repeated) : null;
  const comparison = gated?.comparison ?? null;
  // with --baseline the gate is the comparison: a failure the baseline had too is no regression
  let code = comparison ? gateExitCode(comparison) : probeExitCode(runs, failOn as FailOn);
  if (gated?.saveError) code = EXIT.USAGE;
  if (json) {
    const verdict = worstVerdict(runs.map((r) => r.verdict));
    io.stdout(
      `${toJson({
        verdict,
        exitCode: code,
        failOn,
        runs: runs.map((r) => runView(r)),
        ...(comparison ? { comparison } : {}),
        ...(gate?.savePath && !gated?.saveError ? { baselineSaved: resolve(gate.savePath) } : {}),
      })}\n`,
    );
  } else if (!quiet) {
    // the report goes to stdout: it is the answer; progress went to stderr
    for (const run of runs)
      for (const s of run.samples)
        io.stdout(sampleReport(run.target, run.probe, s, savedTo.get(`${run.target}/${run.probe}/${s.index}`) ?? null));
    if (comparison) io.stdout(`\n${comparisonTable(comparison)}`);
  }
  if (gated?.saveError) io.stderr(`error: ${gated.saveError}\n`);
  else if (gate?.savePath && !quiet) {
    io.stderr(`baseline saved to ${resolve(gate.savePath)}\n`);
    // a gate against errors judges nothing there: worth knowing when the baseline is made, not at the deploy
    const errored = runs.flatMap((r) => r.samples).filter((s) => s.verdict === 'error').length;
    if (errored > 0)
      io.stderr(`warning: ${errored} sample${errored === 1 ? '' : 's'} of the baseline errored: nothing to compare with there\n`);
  }
  for (const e of saveErrors) io.stderr(`error: ${e}\n`);
  // said wherever the report goes (--json, a pipe): the evidence is worth nothing unfound
  if (saveDir !== null && savedTo.size > 0 && !quiet) {
    io.stderr(
      `saved ${savedTo.size} sample${savedTo.size === 1 ? '' : 's'} under ${resolve(saveDir)}${sep}TARGET${sep}PROBE${sep}sample-N\n`,
    );
  }
  return code;
}
