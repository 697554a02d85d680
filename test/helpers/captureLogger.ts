import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** A pino logger at trace level that keeps every line it writes, to search for leaks. */
export function captureLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), text: () => lines.join('') };
}
