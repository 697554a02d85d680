/**
 * Every analyzer threshold with its default, by name: probes override any of them
 * (`probes[].thresholds`), and config validates override names against these keys. Each
 * detector owns its thresholds (value and why, next to its code); this module only gathers
 * what the registry derives from them. `npm run bench -- thresholds` prints each one beside
 * the distribution of its statistic on healthy text.
 */
export { DEFAULT_THRESHOLDS, THRESHOLD_TABLE, type Thresholds } from './detectors/registry.js';
