import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { validateConfig, type ConfigEnv, type ConfigResult, type ValidateOptions } from './validateConfig.js';

export interface ParseConfigOptions extends ValidateOptions {
  /** Where apiKeyEnv variables and COHERENCY_AUTH_TOKEN are looked up; defaults to process.env. */
  env?: ConfigEnv;
  /** Shown in front of YAML syntax errors, e.g. the file path. */
  source?: string;
}

// yaml's own wording for this one points at its API, not at the user's file.
const MESSAGE_OVERRIDES: Record<string, string> = {
  MULTIPLE_DOCS: 'the file must hold a single YAML document (remove the extra ---)',
};

/**
 * Parses and validates a YAML config. Syntax errors are reported with line and column;
 * otherwise every validation problem in the document is reported at once.
 */
export function parseConfig(yamlText: string, options: ParseConfigOptions = {}): ConfigResult {
  const env = options.env ?? process.env;
  const prefix = options.source ? `${options.source}: ` : '';
  const lineCounter = new LineCounter();
  // merge: `<<: *anchor` works as in YAML 1.1, which config writers expect for shared blocks.
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });

  // Warnings (e.g. an unknown !tag) are treated as errors: the file would not mean what it says.
  const problems: YAMLError[] = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) {
    return {
      ok: false,
      errors: problems.map((e) => {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        const message = MESSAGE_OVERRIDES[e.code] ?? e.message;
        return `${prefix}YAML syntax error at line ${line}, column ${col}: ${message}`;
      }),
    };
  }

  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, errors: [`${prefix}YAML error: ${(err as Error).message}`] };
  }
  return validateConfig(raw, env, {
    ...(options.checkFile ? { checkFile: options.checkFile } : {}),
    ...(options.missingSecrets ? { missingSecrets: options.missingSecrets } : {}),
    ...(options.checkDir ? { checkDir: options.checkDir } : {}),
    ...(options.readVerdictModel ? { readVerdictModel: options.readVerdictModel } : {}),
  });
}
