/**
 * The committed model (src/core/verdictModel.json, written by `npm run train`), checked once
 * when this module loads. It is imported as a JSON module so tsc copies it into dist/ and
 * the CLI bundle inlines it: no path to find at run time, in a checkout, a package or the bundle.
 * Its feature names are checked against what the analyzer computes by a test
 * (test/core/verdictModel.test.ts), not here: deriving them runs the engine on reference texts
 * and loads every detector's data, which a short text never needs.
 */
import json from './verdictModel.json' with { type: 'json' };
import { readerOf } from './learnedVerdict.js';
import { loadVerdictModel, type VerdictModel } from './verdictModel.js';

export const DEFAULT_VERDICT_MODEL: VerdictModel = loadVerdictModel(json);
// every name must be one the analyzer can read: a bad one fails here, at load, naming it
readerOf(DEFAULT_VERDICT_MODEL);
