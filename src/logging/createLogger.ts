import { fileURLToPath } from 'node:url';
import { pino, type DestinationStream, type Logger } from 'pino';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The log format asked for: the flag, else $LOG_FORMAT, else pretty on a terminal and JSON
 * everywhere else (a container's stdout, a file, a pipe into a log shipper).
 * Returns an error message naming the bad value instead of a format.
 */
export function pickLogFormat(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  isTTY: boolean,
): LogFormat | { error: string } {
  const asked = flag ?? env['LOG_FORMAT'];
  if (asked === undefined || asked === '') return isTTY ? 'pretty' : 'json';
  if ((LOG_FORMATS as readonly string[]).includes(asked)) return asked as LogFormat;
  return { error: `log format "${asked}" (--log-format or LOG_FORMAT): use json or pretty` };
}

export interface LoggerOptions {
  level: string;
  format: LogFormat;
  /** Colours in pretty output; on by default when stdout is a terminal. */
  colorize?: boolean;
  /** JSON lines go here instead of stdout (tests). Pretty output always goes to stdout through pino-pretty. */
  destination?: DestinationStream;
}

/**
 * The daemon's logger. JSON lines carry ISO-8601 UTC times (`"time":"2026-11-30T08:34:10.123Z"`),
 * which log stores parse without a hint; pretty output goes through pino's own transport
 * (pino-pretty in a worker thread, one line per record: prettyTransport), so formatting never runs on
 * the event loop that streams probes.
 */
export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    base: { name: 'coherency-exporter' },
    // Defence in depth: request headers never reach a log line, whatever logs them.
    redact: { paths: ['headers.authorization', '*.headers.authorization', 'request.headers'], censor: '<redacted>' },
  };
  if (options.format === 'pretty') {
    const transport = pino.transport({
      // pino-pretty through prettyTransport (one line per record); next to this module in dist/src
      // and in the bundle (dist/cli/prettyTransport.js, scripts/bundle.ts)
      target: fileURLToPath(new URL('./prettyTransport.js', import.meta.url)),
      options: {
        colorize: options.colorize ?? process.stdout.isTTY === true,
        translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l o',
        ignore: 'pid,hostname,name',
        singleLine: false,
      },
    }) as DestinationStream;
    return pino(base, transport);
  }
  const json = { ...base, timestamp: pino.stdTimeFunctions.isoTime };
  return options.destination ? pino(json, options.destination) : pino(json);
}
