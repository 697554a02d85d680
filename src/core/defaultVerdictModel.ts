/**
 * The committed model (src/core/verdictModel.json, written by `npm run train`), checked once
 * when this module loads. It is imported as a JSON module so tsc copies it into dist/ and
 * the CLI bundle inlines it: no path to find at run time, in a checkout, a package or the bundle.
 */
import json from './verdictModel.json' with { type: 'json' };
import { FEATURE_NAMES } from './verdictFeatures.js';
import { loadVerdictModel, type VerdictModel } from './verdictModel.js';

export const DEFAULT_VERDICT_MODEL: VerdictModel = loadVerdictModel(json, FEATURE_NAMES);
