export type * from './types.js';
export { DEFAULTS } from './defaults.js';
export {
  validateConfig,
  CONFIG_KEYS,
  type ConfigEnv,
  type ConfigResult,
  type ValidateOptions,
} from './validateConfig.js';
export { checkReadableFile, type FileCheck } from './checkReadableFile.js';
export { parseConfig, type ParseConfigOptions } from './parseConfig.js';
export { configFromEnv } from './configFromEnv.js';
export {
  loadConfig,
  loadConfigFromSource,
  resolveConfigSource,
  defaultConfigPath,
  type ConfigSource,
} from './loadConfig.js';
export { redactConfig, REDACTED } from './redactConfig.js';
