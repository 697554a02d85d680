import { FEATURE_NAMES } from '../core/verdictFeatures.js';
import { loadVerdictModel, type VerdictModel } from '../core/verdictModel.js';
import { readBoundedFile } from '../files/readBoundedFile.js';

/** Largest model file read: the committed one is about 20 KB; a model of this analyzer's features cannot be much more. */
export const VERDICT_MODEL_MAX_BYTES = 1024 * 1024;

/**
 * Reads and checks a verdict model file (written by `npm run train`). Every failure is one
 * Error whose message starts with the path and says what is wrong: the file itself, its
 * JSON, or the field loadVerdictModel refused.
 */
export async function readVerdictModelFile(path: string): Promise<VerdictModel> {
  let text: string;
  try {
    text = (await readBoundedFile(path, { maxBytes: VERDICT_MODEL_MAX_BYTES })).toString('utf8');
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not JSON (${(err as Error).message})`);
  }
  try {
    return loadVerdictModel(json, FEATURE_NAMES);
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}
