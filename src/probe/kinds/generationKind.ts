import type { ProbeConfig } from '../../config/types.js';
import type { ProbeKindModule } from '../probeDeps.js';
import { runSample } from '../runSample.js';
import { runSamples } from './runSamples.js';

/**
 * kind: generation (the default). Each sample is one long streamed generation, analysed as it
 * arrives (runSample.ts); a temperature sweep sends every sample at every temperature.
 */
export const generationKind: ProbeKindModule<'generation'> = {
  name: 'generation',
  findingKinds: [],
  samplesPerRun: (probe) => samplePlan(probe).length,
  run: (target, probe, deps, trigger) =>
    runSamples(target, probe, deps, trigger, async (run) => {
      const plan = samplePlan(probe);
      for (let index = 0; index < plan.length; index++) {
        const atTemperature = plan[index] as ProbeConfig;
        const sample = await run.sample(index, () => runSample(target, atTemperature, deps, index));
        if (!sample) break;
        // a sample that crashed before it was judged still says the temperature it was asked at
        run.finish(sample.temperature === undefined ? { ...sample, temperature: atTemperature.temperature } : sample);
      }
    }),
};

/**
 * The probe as each sample of a run sends it: `samples` copies, or for a temperature sweep every
 * sample at every temperature, interleaved (0, 0.6, 0, 0.6, ...) so that a server's state
 * changing during the run (load, a cache filling) falls on every temperature alike.
 */
export function samplePlan(probe: ProbeConfig): ProbeConfig[] {
  const temps = probe.temperatures;
  const plan: ProbeConfig[] = [];
  for (let i = 0; i < probe.samples; i++) {
    if (!temps) plan.push(probe);
    else for (const temperature of temps) plan.push({ ...probe, temperature });
  }
  return plan;
}
