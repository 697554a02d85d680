import { isRunDeadline } from '../../client/runDeadline.js';
import { CONFORMANCE_CHECKS } from '../../config/probeKindTypes.js';
import type { ProbeConfig, TargetConfig } from '../../config/types.js';
import { apiKeyOf } from '../buildChatRequest.js';
import { createCheckContext } from '../conformance/checkContext.js';
import { fail, type CheckResult, type CheckVerdict, type ConformanceOutcome } from '../conformance/checkTypes.js';
import { CHECKS } from '../conformance/index.js';
import { errorSample } from '../judgeSample.js';
import type { SampleErrorType, SampleResult } from '../probeTypes.js';
import type { ProbeDeps, ProbeKindModule } from '../probeDeps.js';
import { withJudgement } from './withJudgement.js';
import { runSamples } from './runSamples.js';

declare module '../probeTypes.js' {
  interface ProbeKindSamples {
    conformance: { outcome: ConformanceOutcome; findingKinds: 'conformance' };
  }
}

/**
 * kind: conformance. Runs the probe's checks (src/probe/conformance/, one file each) in turn
 * against the target, as one sample holding one slot: a checklist of what the endpoint, and any
 * proxy in front of it, must get right. The sample fails when a check fails (a `conformance`
 * finding per failed check), is an error when no check got an answer at all (the target is
 * down: that is CoherencyProbeErrors' business), and is ok when every check passed or was skipped.
 */
export const conformanceKind: ProbeKindModule<'conformance'> = {
  name: 'conformance',
  findingKinds: ['conformance'],
  // one sample, whatever `samples` says: one totalSeconds for all its checks
  samplesPerRun: () => 1,
  run: (target, probe, deps, trigger) =>
    runSamples(target, probe, deps, trigger, async (run) => {
      const sample = await run.sample(0, () =>
        conformanceSample(target, probe, deps, (check, err) => run.log.error({ err, check }, 'check crashed')),
      );
      if (sample) run.finish(sample);
    }),
};

/** Every selected check, in order, each guarded: a check that throws (a bug of ours) fails with internal_error. */
export async function runChecks(
  names: readonly (typeof CONFORMANCE_CHECKS)[number][],
  ctx: Parameters<(typeof CHECKS)['models']>[0],
  now: () => number,
  signal: AbortSignal | undefined,
  crashed: (check: string, err: unknown) => void,
  done: (result: CheckResult) => void = () => {},
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const name of names) {
    if (signal?.aborted) break;
    const started = now();
    let verdict: CheckVerdict;
    try {
      verdict = await CHECKS[name](ctx);
    } catch (err) {
      crashed(name, err);
      verdict = fail('internal_error', `the check crashed: ${err instanceof Error ? err.message : String(err)}`);
    }
    const result: CheckResult = { check: name, ...verdict, durationSeconds: (now() - started) / 1000 };
    results.push(result);
    done(result);
  }
  return results;
}

async function conformanceSample(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  crashed: (check: string, err: unknown) => void,
): Promise<SampleResult> {
  if (!deps.http) return errorSample(0, 'internal', 'the conformance probe was given no HTTP client');
  let apiKey: string | null;
  try {
    apiKey = await apiKeyOf(target, deps.env, deps.readKeyFile);
  } catch (err) {
    return errorSample(0, 'api_key', (err as Error).message);
  }
  const started = deps.now();
  const ctx = createCheckContext(target, probe, deps, deps.http, apiKey, deps.signal);
  const checks = await runChecks(probe.conformance?.checks ?? CONFORMANCE_CHECKS, ctx, deps.now, deps.signal, crashed, (c) =>
    deps.observer?.checkDone?.(target.name, probe.name, c),
  );
  // the checks done are kept (the outcome) whatever ended the run
  const done = { durationSeconds: (deps.now() - started) / 1000, outcome: { kind: 'conformance' as const, ...outcome(target, checks) } };
  const ended = (type: SampleErrorType, message: string): SampleResult => ({ ...errorSample(0, type, message), ...done });
  if (deps.signal?.aborted && isRunDeadline(deps.signal.reason)) {
    // the check cut short names timeout_run in its detail
    const asked = (probe.conformance?.checks ?? CONFORMANCE_CHECKS).length;
    return ended('timeout_run', `${deps.signal.reason.message}: ${checks.length} of ${asked} checks ran`);
  }
  if (deps.signal?.aborted) return ended('aborted', 'the daemon stopped the run (shutdown or reload) before every check ran');
  const judged = checks.filter((c) => c.status !== 'skipped');
  const unanswered = judged.length > 0 && judged.every((c) => c.reason === 'no_response');
  if (unanswered) {
    const first = judged[0] as CheckResult;
    const type = typeof first.evidence['error'] === 'string' ? first.evidence['error'] : 'connect';
    return ended(type as SampleErrorType, `no check got an answer: ${first.detail}`);
  }
  const passed: SampleResult = { ...errorSample(0, 'internal', ''), ...done, verdict: 'ok', error: null, reasons: [] };
  return withJudgement(passed, {
    findings: checks
      .filter((c) => c.status === 'fail')
      .map((c) => ({
        kind: 'conformance' as const,
        severity: 'fail' as const,
        atChar: -1,
        detail: `${c.check} failed (${c.reason}): ${c.detail}`,
      })),
  });
}

// what leaves the model's reasoning unknown: no answer to read, or an API without reasoning (completions)
const UNANSWERED: ReadonlySet<string> = new Set(['no_response', 'http_status', 'bad_body', 'internal_error', 'not_in_api']);

/** The sample's checklist, with the reasoning model as found and the streaming figures when they were judged. */
function outcome(target: TargetConfig, checks: CheckResult[]): ConformanceOutcome {
  const reasoning = checks.find((c) => c.check === 'reasoning');
  const streaming = checks.find((c) => c.check === 'streaming');
  const late = streaming?.evidence['lateContentRatio'];
  const first = streaming?.evidence['firstContentRatio'];
  return {
    checks,
    reasoningModel: target.reasoning ?? (!reasoning || UNANSWERED.has(reasoning.reason) ? null : reasoning.status !== 'skipped'),
    streaming:
      streaming?.evidence['spreadJudged'] === true && typeof late === 'number' && typeof first === 'number'
        ? { lateContentRatio: late, firstContentRatio: first }
        : null,
  };
}
