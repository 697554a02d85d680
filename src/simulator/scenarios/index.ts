import { collapseScenarios } from './collapse.js';
import { contextScenarios } from './context.js';
import { faultScenarios } from './faults.js';
import { goldenScenarios } from './golden.js';
import { healthyScenarios } from './healthy.js';
import type { ScenarioDefinition } from './types.js';

/** Name → scenario: a model name picks one, `@N` after the name passes its parameter. */
export const SCENARIO_MAP: ReadonlyMap<string, ScenarioDefinition> = new Map(
  [...healthyScenarios, ...collapseScenarios, ...faultScenarios, ...contextScenarios, ...goldenScenarios].map((definition) => [
    definition.name,
    definition,
  ]),
);

export type ScenarioLookup =
  | { ok: true; definition: ScenarioDefinition; param: number | null }
  | { ok: false; reason: 'unknown' | 'bad_param'; message: string };

/** "collapse-sentence@500" → the collapse-sentence scenario with param 500. */
export function lookupScenario(model: string): ScenarioLookup {
  const at = model.indexOf('@');
  const name = at < 0 ? model : model.slice(0, at);
  const definition = SCENARIO_MAP.get(name);
  if (!definition) {
    return {
      ok: false,
      reason: 'unknown',
      message: `The model \`${model}\` does not exist. Known scenarios: ${[...SCENARIO_MAP.keys()].join(', ')}.`,
    };
  }
  if (at < 0) return { ok: true, definition, param: null };
  const raw = model.slice(at + 1);
  if (definition.param === null) {
    return { ok: false, reason: 'bad_param', message: `Scenario \`${name}\` takes no parameter (got \`@${raw}\`).` };
  }
  if (!/^\d{1,9}$/.test(raw)) {
    return {
      ok: false,
      reason: 'bad_param',
      message: `Scenario \`${name}\` expects \`@N\` with N a non-negative integer: ${definition.param}.`,
    };
  }
  return { ok: true, definition, param: Number(raw) };
}
