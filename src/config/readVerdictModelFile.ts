import { DEFAULT_VERDICT_MODEL } from '../core/defaultVerdictModel.js';
import { readerOf } from '../core/learnedVerdict.js';
import { loadVerdictModel, type VerdictModel } from '../core/verdictModel.js';
import { readBoundedFile, readBoundedFileSync } from '../files/readBoundedFile.js';

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
  return parseVerdictModel(path, text);
}

/** readVerdictModelFile for the config's validation, which reports every problem in one synchronous pass. */
export function readVerdictModelFileSync(path: string): VerdictModel {
  let text: string;
  try {
    text = readBoundedFileSync(path, { maxBytes: VERDICT_MODEL_MAX_BYTES }).toString('utf8');
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
  return parseVerdictModel(path, text);
}

function parseVerdictModel(path: string, text: string): VerdictModel {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not JSON (${(err as Error).message})`);
  }
  try {
    // the committed model's features are this analyzer's (a test checks them): a retrained one must have the same, in that order
    const model = loadVerdictModel(json, DEFAULT_VERDICT_MODEL.features);
    readerOf(model);
    return model;
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}
