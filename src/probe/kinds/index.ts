import type { ProbeKind } from '../../config/probeKindTypes.js';
import type { ProbeConfig, TargetConfig } from '../../config/types.js';
import type { RunResult } from '../probeTypes.js';
import { runGenerationProbe } from '../generationProbe.js';
import type { ProbeDeps } from '../probeDeps.js';
import { runConformanceProbe } from './conformanceProbe.js';
import { runContaminationProbe } from './contaminationProbe.js';
import { runRecallProbe } from './recallProbe.js';

/** Every probe kind has the generation probe's signature: runProbe picks one by `kind`. */
export type ProbeKindFn = (target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps, trigger?: RunResult['trigger']) => Promise<RunResult>;

/** Kind name → the function that runs a probe of that kind (runProbe.ts dispatches through it). */
export const PROBE_KINDS: Readonly<Record<ProbeKind, ProbeKindFn>> = Object.freeze({
  generation: runGenerationProbe,
  recall: runRecallProbe,
  contamination: runContaminationProbe,
  conformance: runConformanceProbe,
});
