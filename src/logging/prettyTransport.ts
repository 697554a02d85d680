/**
 * The pretty log format: pino-pretty in pino's worker thread (pino.transport loads this file),
 * every record on one line, with the folding of peopleLine. Function-valued options cannot
 * cross into the worker, hence a module of its own. The daemon's address, which makes the
 * link of each sample's line complete, is read from its "listening" line as it passes.
 */
import pinoPretty from 'pino-pretty';
import { FOLDABLE_KEYS, isFolded, peopleMessage } from './peopleLine.js';

export default function prettyTransport(options: pinoPretty.PrettyOptions): pinoPretty.PrettyStream {
  let baseUrl: string | null = null;
  return pinoPretty({
    ...options,
    singleLine: true,
    messageFormat: (log) => {
      if (typeof log['url'] === 'string' && String(log['msg']).startsWith('coherency-exporter listening')) baseUrl = log['url'];
      const message = peopleMessage(log, baseUrl);
      // pino-pretty writes the message first, then the fields left in this same object:
      // the ones the message says are dropped from it (logFormat.test.ts holds this).
      for (const key of FOLDABLE_KEYS.filter((k) => isFolded(log, k))) delete log[key];
      return message;
    },
  });
}
