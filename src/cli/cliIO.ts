import type { EarlySignals } from '../signalGate.js';

/** Where a command writes; swapped in tests. */
export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  readStdin?: () => Promise<Uint8Array>;
  /** Signals bin/coherency-exporter.js recorded before this module loaded. */
  earlySignals?: EarlySignals;
  /** Whether stderr is a terminal (probe's live progress); default: process.stderr.isTTY. */
  stderrIsTTY?: boolean;
  /**
   * stderr as given, for the live progress view's own cursor movements (it makes each line it
   * draws terminal-safe itself); main() makes stdout and stderr terminal-safe.
   */
  rawStderr?: (s: string) => void;
}
