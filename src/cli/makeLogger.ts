import type { Logger } from 'pino';
import type { LogFormat } from '../logging/createLogger.js';
import type { CliIO } from './cliIO.js';

/** The logger of a long-running command; pino is loaded here, on demand, so one-shot commands start without it. */
export async function makeLogger(io: CliIO, level?: string, format?: LogFormat): Promise<Logger> {
  const { createLogger, pickLogFormat } = await import('../logging/createLogger.js');
  const picked = format ?? pickLogFormat(undefined, io.env, process.stdout.isTTY === true);
  return createLogger({ level: level ?? io.env['LOG_LEVEL'] ?? 'info', format: typeof picked === 'string' ? picked : 'json' });
}
