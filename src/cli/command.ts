import type { ParseArgsConfig } from 'node:util';
import type { CliIO } from './cliIO.js';

/** The flags of a command as node:util's parseArgs read them. */
export type CommandValues = Record<string, string | boolean | string[] | undefined>;

/**
 * One command of the CLI, one module each in src/cli/commands/. A command imports its heavy
 * modules (the analyzer, the daemon, the simulator, pino) inside run() or moreHelp(), so
 * `--help` and `--version` load none of them.
 */
export interface Command {
  summary: string;
  usage: string;
  /** Help text that needs a module to write (the simulator's scenarios), added by --help. */
  moreHelp?: () => Promise<string>;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals: boolean;
  /** An exit code (EXIT), or 'running' for a command (serve, simulate) that stays up until a signal. */
  run(values: CommandValues, positionals: string[], io: CliIO): Promise<number | 'running'>;
}
