// The dispatch only: read argv, pick the command, print the usage, report bad flags. Each
// command is a module of src/cli/commands/ that loads its own heavy modules when it runs (the
// analyzer, the config validator, the simulator, pino, the daemon's HTTP stack), so `--help`
// and `analyze` do not pay for what they never use.
import { parseArgs } from 'node:util';
import type { CliIO } from './cli/cliIO.js';
import type { Command, CommandValues } from './cli/command.js';
import { analyze } from './cli/commands/analyze.js';
import { checkConfig } from './cli/commands/checkConfig.js';
import { healthcheck } from './cli/commands/healthcheck.js';
import { probe } from './cli/commands/probe.js';
import { schema } from './cli/commands/schema.js';
import { serve } from './cli/commands/serve.js';
import { simulate } from './cli/commands/simulate.js';
import { EXIT } from './cli/exitCodes.js';
import { terminalSafeWriter } from './oneShot/terminalSafe.js';
import { releaseEarlySignals, type EarlySignals } from './signalGate.js';
import { VERSION } from './version.js';

const defaultIO: CliIO = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
};

/** Every command by the name typed; the usage lists them in this order. */
const COMMANDS: Record<string, Command> = {
  serve,
  simulate,
  analyze,
  probe,
  healthcheck,
  schema,
  'check-config': checkConfig,
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return `coherency-exporter ${VERSION}: probes LLM endpoints with long streaming generations and exports repetition-collapse figures to Prometheus.

Usage: coherency-exporter [COMMAND] [OPTIONS]   (COMMAND defaults to serve)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}

Run 'coherency-exporter COMMAND --help' for a command's options.
`;
}

/**
 * Runs a command. Resolves to an exit code, or to 'running' for a long-running
 * command (serve, simulate) that keeps the process alive until a signal.
 */
export async function main(argv: string[], io: CliIO = defaultIO, earlySignals?: EarlySignals): Promise<number | 'running'> {
  if (earlySignals) io = { ...io, earlySignals };
  // Everything printed can hold text a target chose (its /version, model names, error messages,
  // output excerpts): control characters and bidi controls are shown escaped, never obeyed.
  io = { ...io, stdout: terminalSafeWriter(io.stdout), stderr: terminalSafeWriter(io.stderr), rawStderr: io.rawStderr ?? io.stderr };
  const first = argv[0];
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout(usage());
    return EXIT.OK;
  }
  if (first === '--version' || first === '-V' || first === 'version') {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  const explicit = first !== undefined && !first.startsWith('-');
  const name = explicit ? first : 'serve';
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`error: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})\n`);
    return EXIT.USAGE;
  }
  const rest = explicit ? argv.slice(1) : argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.usage}${command.moreHelp ? `\n${await command.moreHelp()}` : ''}\n`);
    return EXIT.OK;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: command.allowPositionals, strict: true });
  } catch (err) {
    io.stderr(`error: ${(err as Error).message}\nUsage: ${command.usage.split('\n')[0]}\n`);
    return EXIT.USAGE;
  }
  if (name !== 'serve') {
    const stopped = releaseEarlySignals(io.earlySignals);
    if (stopped !== null) return stopped;
  }
  return command.run(parsed.values as CommandValues, parsed.positionals, io);
}
