import { SCENARIO_MAP } from './scenarios/index.js';

export { startSimulator, DEFAULT_MAX_TOKENS, MAX_BODY_BYTES, REQUEST_LOG_LIMIT } from './startSimulator.js';
export type { SimulatedRequest, Simulator, SimulatorOptions } from './types.js';
export { createHealthyText, type HealthyText, type HealthyTextOptions } from '../prose/healthyText.js';
export { tokenize } from '../prose/tokenize.js';
export { DEFECTS, RENAMED_MODEL, type DefectName } from './defects.js';
export { createReleaseSwitch, DEFAULT_DEGRADE_TO, type ReleaseOptions } from './release.js';

export interface ScenarioInfo {
  /** The model name that selects it. */
  name: string;
  description: string;
  /** What `name@N` sets; null when the scenario takes no parameter. */
  param: string | null;
}

/** Every scenario a model name can select, in a stable order. */
export const SCENARIOS: readonly ScenarioInfo[] = Object.freeze(
  [...SCENARIO_MAP.values()].map(({ name, description, param }) => Object.freeze({ name, description, param })),
);
