/** What validateConfig takes besides the document, and what it gives. */
import type { VerdictModel } from '../core/verdictModel.js';
import type { FileCheck } from './checkReadableFile.js';
import type { DirCheck } from './checkWritableDir.js';
import type { Config } from './types.js';

export type ConfigEnv = Record<string, string | undefined>;

export type ConfigResult = { ok: true; config: Config; warnings?: string[] } | { ok: false; errors: string[] };

export interface ValidateOptions {
  /** How apiKeyFile and tls.caFile are checked at load; defaults to the real file system. */
  checkFile?: FileCheck;
  /** How probes[].verdictModel is read and checked (throws a message naming the file); defaults to a bounded read of the real file. */
  readVerdictModel?: (path: string) => VerdictModel;
  /** How storage.dir is checked (a directory that exists or can be created, writable); defaults to the real file system. */
  checkDir?: DirCheck;
  /**
   * What an unset apiKeyEnv variable is: an error (serve, reload: the default) or a warning
   * (check-config in a pipeline that has the file but not the secret).
   */
  missingSecrets?: 'error' | 'warning';
}
