import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FileRefused, readBoundedFile } from '../files/readBoundedFile.js';
import { CONFIG_MAX_BYTES } from './configMaxBytes.js';
import { configFromEnv } from './configFromEnv.js';
import { DEFAULTS } from './defaults.js';
import { parseConfig } from './parseConfig.js';
import type { ConfigEnv, ConfigResult, ValidateOptions } from './validateConfig.js';

/** Where the config comes from, and why (for the startup log line). */
export type ConfigSource =
  | { kind: 'file'; path: string; from: 'flag' | 'COHERENCY_CONFIG' | 'default' | 'demo' }
  | { kind: 'env'; from: 'OPENAI_BASE_URL' };

/**
 * Picks the config source. First match wins:
 *   1. the --config flag (always, even when OPENAI_BASE_URL is set);
 *   2. $COHERENCY_CONFIG (when non-empty);
 *   3. OPENAI_BASE_URL (when non-empty): configFromEnv, no file is read. This comes
 *      before the default file on purpose: config/coherency.yaml always exists in a
 *      checkout (it probes the simulator), so the env convention would otherwise never apply;
 *   4. config/coherency.yaml in the working directory, else the copy shipped with the
 *      package. When neither exists the cwd path is returned and loading it says so.
 */
export function resolveConfigSource(args: { configFlag?: string; demo?: boolean; env: ConfigEnv; cwd?: string }): ConfigSource {
  if (args.demo) return { kind: 'file', path: demoConfigPath(), from: 'demo' };
  if (args.configFlag !== undefined) return { kind: 'file', path: args.configFlag, from: 'flag' };
  const fromEnv = args.env['COHERENCY_CONFIG'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { kind: 'file', path: fromEnv, from: 'COHERENCY_CONFIG' };
  const baseUrl = args.env['OPENAI_BASE_URL'];
  if (baseUrl !== undefined && baseUrl.trim() !== '') return { kind: 'env', from: 'OPENAI_BASE_URL' };
  return { kind: 'file', path: defaultConfigPath(args.cwd ?? process.cwd()), from: 'default' };
}

/** config/coherency.yaml under cwd when present there, else the packaged copy. */
export function defaultConfigPath(cwd: string): string {
  const local = resolve(cwd, DEFAULTS.configPath);
  if (existsSync(local)) return local;
  const root = packageRoot();
  if (root !== null) {
    const packaged = join(root, DEFAULTS.configPath);
    if (existsSync(packaged)) return packaged;
  }
  return local;
}

/** The demo config shipped with the package (serve --demo): the first of DEFAULTS.demoConfigPaths under `root` that exists. */
export function demoConfigPath(root: string | null = packageRoot()): string {
  const base = root ?? process.cwd();
  const paths = DEFAULTS.demoConfigPaths.map((p) => join(base, p));
  return paths.find((p) => existsSync(p)) ?? (paths[0] as string);
}

/** Walks up from this module (src/config or dist/src/config) to our package.json. */
function packageRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'coherency-exporter') return dir;
      } catch {
        // Not ours or unreadable: keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Reads and validates a config file. A missing or unreadable file is one error naming the path. */
export async function loadConfig(path: string, env: ConfigEnv = process.env, options: ValidateOptions = {}): Promise<ConfigResult> {
  if (path.trim() === '') return { ok: false, errors: ['config file path is empty'] };
  let text: string;
  try {
    // bounded and non-blocking: a FIFO or /dev/zero given as --config ends in an error, not a hang
    text = (await readBoundedFile(path, { maxBytes: CONFIG_MAX_BYTES })).toString('utf8');
  } catch (err) {
    return { ok: false, errors: [`${path}: ${readFailure(err)}`] };
  }
  return parseConfig(text, { ...options, env, source: path });
}

/** loadConfig or configFromEnv, as the source says. */
export async function loadConfigFromSource(
  source: ConfigSource,
  env: ConfigEnv = process.env,
  options: ValidateOptions = {},
): Promise<ConfigResult> {
  return source.kind === 'env' ? configFromEnv(env, options) : loadConfig(source.path, env, options);
}

function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'NOT_REGULAR':
    case 'ELOOP':
      return `${(err as Error).message}: not a config file`;
    case 'TOO_LARGE':
      return `larger than ${CONFIG_MAX_BYTES} bytes: not a config file`;
    case 'ENOENT':
      return 'config file not found';
    case 'EISDIR':
      return 'is a directory, not a config file';
    case 'UNREADABLE':
      return `cannot read config file (${(err as FileRefused).detail.errno})`;
    case 'EACCES':
    case 'EPERM':
      return 'cannot read config file (permission denied)';
    default:
      return `cannot read config file (${code ?? (err as Error).message})`;
  }
}
