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
  const line = parseCommandLine(argv);
  if (line.kind === 'help') {
    io.stdout(usage());
    return EXIT.OK;
  }
  if (line.kind === 'version') {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  if (line.kind === 'error') {
    io.stderr(line.message);
    return EXIT.USAGE;
  }
  const { name, command } = line;
  if (line.kind === 'commandHelp') {
    io.stdout(`${command.usage}${command.moreHelp ? `\n${await command.moreHelp()}` : ''}\n`);
    return EXIT.OK;
  }
  if (name !== 'serve') {
    const stopped = releaseEarlySignals(io.earlySignals);
    if (stopped !== null) return stopped;
  }
  return command.run(line.values, line.positionals, io);
}

/** What a command line asks for, read without running anything. */
export type CommandLine =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'commandHelp'; name: string; command: Command }
  | { kind: 'run'; name: string; command: Command; values: CommandValues; positionals: string[] }
  /** A usage error: the message as printed (ending in a newline). */
  | { kind: 'error'; message: string };

/** Reads argv (after the program name): the command (serve when the first word is a flag or absent) and its flags, strictly. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const first = argv[0];
  if (first === '--help' || first === '-h' || first === 'help') return { kind: 'help' };
  if (first === '--version' || first === '-V' || first === 'version') return { kind: 'version' };
  const explicit = first !== undefined && !first.startsWith('-');
  const name = explicit ? first : 'serve';
  const command = COMMANDS[name];
  if (!command) return { kind: 'error', message: `error: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})\n` };
  const rest = explicit ? argv.slice(1) : [...argv];
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'commandHelp', name, command };
  try {
    const parsed = parseArgs({ args: rest, options: command.options, allowPositionals: command.allowPositionals, strict: true });
    return { kind: 'run', name, command, values: parsed.values as CommandValues, positionals: parsed.positionals };
  } catch (err) {
    return { kind: 'error', message: `error: ${(err as Error).message}\nUsage: ${command.usage.split('\n')[0]}\n` };
  }
}
