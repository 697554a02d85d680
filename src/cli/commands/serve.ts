import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import type { Config } from '../../config/types.js';
import type { ConfigResult } from '../../config/validateConfig.js';
import { SignalGate } from '../../signalGate.js';
import type { CliIO } from '../cliIO.js';
import type { Command, CommandValues } from '../command.js';
import { configSummary } from '../configSummary.js';
import { EXIT } from '../exitCodes.js';
import { makeLogger } from '../makeLogger.js';
import { parsePort } from '../parsePort.js';

export const serve: Command = {
  summary: 'run the exporter: scheduled probes, /metrics, /probe (default command)',
  usage: `coherency-exporter serve [--config FILE | --demo] [--host H] [--port N] [--log-level LEVEL]
                         [--log-format json|pretty] [--shard-index I --shard-count N]

  --config FILE     YAML config. Where the config comes from, first match wins:
                      1. --config FILE
                      2. $COHERENCY_CONFIG (a file)
                      3. $OPENAI_BASE_URL: that endpoint, no file (model from
                         $COHERENCY_MODEL or $OPENAI_MODEL, else the one model its /models
                         lists; key from $OPENAI_API_KEY or $OPENAI_API_KEY_FILE); it wins
                         over the demo file below
                      4. config/coherency.yaml (the demo: a built-in simulator)
                    The first log line says which one was used. With none of them (the
                    container image ships no config/coherency.yaml) serve says where to
                    put one and exits ${EXIT.USAGE}.
  --demo            the demo instead: a built-in simulator and targets on it that show
                    every verdict (config/demo.yaml in the image, else config/coherency.yaml)
  --host H          listen address (overrides server.host)
  --port N          listen port (overrides server.port)
  --log-level L     trace, debug, info, warn, error (default: $LOG_LEVEL or info);
                    a failing sample logs at warn, an erroring one at error, ok at info
  --log-format F    json (one object per line, ISO times) or pretty (default: $LOG_FORMAT,
                    else pretty on a terminal and json otherwise)
  --shard-index I   with --shard-count N: probe only the targets whose name hashes to
  --shard-count N   shard I of N ($COHERENCY_SHARD_INDEX, $COHERENCY_SHARD_COUNT; I may be
                    a StatefulSet pod name such as coherency-exporter-2)

Requests to targets go through $HTTPS_PROXY / $HTTP_PROXY when set, except to the hosts in
$NO_PROXY (lowercase names too; read at start).
Signals: SIGHUP reloads the config file; SIGTERM or SIGINT stops (a second one exits at once).`,
  options: {
    config: { type: 'string', short: 'c' },
    demo: { type: 'boolean' },
    host: { type: 'string' },
    port: { type: 'string', short: 'p' },
    'log-level': { type: 'string' },
    'log-format': { type: 'string' },
    'shard-index': { type: 'string' },
    'shard-count': { type: 'string' },
  },
  allowPositionals: false,
  async run(values, _pos, io) {
    // First: a SIGHUP from a config-reloader sidecar or a SIGTERM during start-up is held
    // and applied once the daemon is up, instead of killing it (SIGHUP's default action).
    const gate = new SignalGate(process, io.earlySignals);
    const code = await startServe(values, io, gate);
    if (code !== 'running') gate.dispose();
    return code;
  },
};

/** serve, after its signal gate is up: validates the flags, loads the config, starts the daemon. */
async function startServe(values: CommandValues, io: CliIO, gate: SignalGate): Promise<number | 'running'> {
  const { parseShard } = await import('../../scheduler/shard.js');
  const { pino } = await import('pino');
  const { pickLogFormat } = await import('../../logging/createLogger.js');
  const shard = parseShard(
    (values['shard-index'] as string | undefined) ?? io.env['COHERENCY_SHARD_INDEX'],
    (values['shard-count'] as string | undefined) ?? io.env['COHERENCY_SHARD_COUNT'],
  );
  if (typeof shard === 'string') {
    io.stderr(`error: --shard-index/--shard-count: ${shard}\n`);
    return EXIT.USAGE;
  }
  const port = values['port'] === undefined ? undefined : parsePort(String(values['port']));
  if (port === null) {
    io.stderr(`error: --port: must be an integer from 0 to 65535, got "${String(values['port'])}"\n`);
    return EXIT.USAGE;
  }
  const level = (values['log-level'] as string | undefined) ?? io.env['LOG_LEVEL'] ?? 'info';
  if (!(level in pino.levels.values) && level !== 'silent') {
    io.stderr(`error: log level "${level}" (--log-level or LOG_LEVEL): use one of ${Object.keys(pino.levels.values).join(', ')}, silent\n`);
    return EXIT.USAGE;
  }
  const format = pickLogFormat(values['log-format'] as string | undefined, io.env, process.stdout.isTTY === true);
  if (typeof format !== 'string') {
    io.stderr(`error: ${format.error}\n`);
    return EXIT.USAGE;
  }
  if (values['demo'] && values['config'] !== undefined) {
    io.stderr('error: --demo and --config: give one (--demo runs the built-in simulator demo)\n');
    return EXIT.USAGE;
  }
  // the proxy variables are read once, here and by the daemon: a bad one is a usage error, not a stack trace
  const { readProxyEnv } = await import('../../client/proxyEnv.js');
  const proxied = readProxyEnv(io.env);
  if (!proxied.ok) {
    io.stderr(`error: ${proxied.error}\n`);
    return EXIT.USAGE;
  }
  const logger = await makeLogger(io, level, format);
  gate.useLogger(logger);
  const loaded = await readConfig(values['config'] as string | undefined, io, values['demo'] === true);
  if (!loaded) return EXIT.USAGE;
  // One line that says which config was picked (--config, $COHERENCY_CONFIG, $OPENAI_BASE_URL
  // or the default file) and what it holds, so a surprise is seen at start, not at the first alert;
  // every target and probe at debug.
  const said = configSummary(loaded.config, loaded.from, loaded.path, loaded.shadowed, loaded.modelNote);
  logger.info(said.summary, said.message);
  logger.debug(said.dump, 'config in use');
  // loaded on demand: analyze and check-config start without the daemon's HTTP stack
  const { startDaemon } = await import('../../daemon.js');
  const daemon = await startDaemon({
    config: loaded.config,
    configPath: loaded.path,
    logger,
    env: io.env,
    shard,
    ...(values['host'] ? { host: String(values['host']) } : {}),
    ...(port !== undefined ? { port } : {}),
  }).catch((err: unknown) => {
    // A host that does not resolve, a port in use or not allowed: one line, exit 2.
    if (!(err instanceof Error) || err.name !== 'ListenError') throw err;
    io.stderr(`error: ${err.message}\n`);
    return null;
  });
  if (!daemon) return EXIT.USAGE;
  gate.attach({ stop: () => daemon.close(), reload: () => daemon.reload() });
  return 'running';
}

async function readConfig(
  flag: string | undefined,
  io: CliIO,
  demo: boolean,
): Promise<{ config: Config; path: string | null; from: string; shadowed: string | null; modelNote: string | null } | null> {
  const { defaultConfigPath, loadConfig, resolveConfigSource } = await import('../../config/loadConfig.js');
  const source = resolveConfigSource({ ...(flag !== undefined ? { configFlag: flag } : {}), demo, env: io.env });
  if (source.kind === 'file' && source.from === 'default' && !existsSync(source.path)) {
    // No config anywhere (the container image without a mounted file): say where one goes.
    io.stderr(
      `error: no config: none of --config, $COHERENCY_CONFIG or $OPENAI_BASE_URL is set, and ${source.path} does not exist.\n` +
        `  Mount or write your config there (docker run -v "$PWD/coherency.yaml:${source.path}:ro" ...), pass --config FILE,\n` +
        '  or set OPENAI_BASE_URL and OPENAI_MODEL to probe one endpoint; --demo runs the built-in simulator demo.\n',
    );
    return null;
  }
  let result: ConfigResult;
  let modelNote: string | null = null;
  if (source.kind === 'file') result = await loadConfig(source.path, io.env);
  else {
    const fromEnv = await configWithServedModel(io);
    if (fromEnv === null) return null;
    ({ result, modelNote } = fromEnv);
  }
  const fallback = source.kind === 'env' ? defaultConfigPath(process.cwd()) : null;
  const shadowed = fallback !== null && existsSync(fallback) ? relativeToCwd(fallback) : null;
  if (result.ok)
    return { config: result.config, path: source.kind === 'file' ? source.path : null, from: source.from, shadowed, modelNote };
  const where = source.kind === 'file' ? source.path : 'environment (OPENAI_BASE_URL)';
  io.stderr(`error: invalid config from ${where}:\n`);
  for (const e of result.errors) io.stderr(`  ${e}\n`);
  return null;
}

/** Stands for the model in the draft config validated before /models is read; never sent. */
const MODEL_PENDING = 'model-read-from-models';

/**
 * The config of OPENAI_BASE_URL. Without a model variable, the endpoint's /models is read once
 * (servedModel.ts) after everything else validated: its one model is probed; several, none or no
 * answer print what was found and what to set, and serve exits (null).
 */
async function configWithServedModel(io: CliIO): Promise<{ result: ConfigResult; modelNote: string | null } | null> {
  const { configFromEnv, envModelVar } = await import('../../config/configFromEnv.js');
  if (envModelVar(io.env) !== null) return { result: configFromEnv(io.env), modelNote: null };
  const draft = configFromEnv(io.env, {}, MODEL_PENDING);
  const target = draft.ok ? draft.config.targets[0] : undefined;
  if (!target) return { result: draft, modelNote: null };
  const { readServedModelNow } = await import('../../daemon/servedModel.js');
  const choice = await readServedModelNow(target, io.env, undefined, draft.ok ? draft.config : undefined);
  if (!choice.ok) {
    io.stderr(`error: ${choice.message}\n`);
    return null;
  }
  return { result: configFromEnv(io.env, {}, choice.model), modelNote: choice.note };
}

/** A path as a person typed it: relative to the working directory when under it. */
function relativeToCwd(path: string): string {
  const cwd = `${process.cwd()}${sep}`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}
