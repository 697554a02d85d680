import type { Logger } from 'pino';

/** Signals recorded by bin/coherency-exporter.js before the CLI module has loaded. */
export interface EarlySignals {
  signals: NodeJS.Signals[];
  handler: (signal: NodeJS.Signals) => void;
}

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const ALL = [...STOP_SIGNALS, 'SIGHUP'] as const;

/** What the gate drives once the daemon is up. */
export interface SignalTargets {
  stop(): Promise<void>;
  reload(): Promise<unknown>;
}

/**
 * Signal handling for a long-running command, installed before anything slow: a SIGHUP or
 * SIGTERM during start-up (loading stored runs, binding the port) is held and applied once
 * the daemon is up, instead of killing the process (SIGHUP's default action) or being lost.
 * The first SIGTERM/SIGINT stops gracefully (10 s at most); a second one exits at once.
 */
export class SignalGate {
  private targets: SignalTargets | null = null;
  private reloadPending = false;
  private stopPending: NodeJS.Signals | null = null;
  private stopping = false;
  private logger: Logger | null = null;
  private readonly onSignal = (signal: NodeJS.Signals): void => this.receive(signal);

  /** The signals it handles: all three for serve; the stop signals alone for a command with nothing to reload (SIGHUP keeps node's default). */
  private readonly handled: readonly NodeJS.Signals[];

  constructor(
    private readonly proc: Pick<NodeJS.Process, 'on' | 'off' | 'exit'> = process,
    early?: EarlySignals,
    options: { reloads?: boolean } = {},
  ) {
    this.handled = options.reloads === false ? STOP_SIGNALS : ALL;
    for (const s of this.handled) proc.on(s, this.onSignal);
    if (early) {
      for (const s of ALL) proc.off(s, early.handler);
      for (const s of early.signals) this.receive(s);
    }
  }

  /** Where lines about signals go, once a logger exists. */
  useLogger(logger: Logger): void {
    this.logger = logger;
  }

  /** The daemon is up: signals act on it from now on, and the held ones are applied. */
  attach(targets: SignalTargets): void {
    this.targets = targets;
    if (this.stopPending) {
      this.logger?.info({ signal: this.stopPending }, 'stop requested during start-up: stopping now');
      this.stop(this.stopPending);
    } else if (this.reloadPending) {
      this.reloadPending = false;
      this.logger?.info('SIGHUP during start-up: reloading the config now');
      this.reload();
    }
  }

  /** Stops listening (tests; a command that failed to start). */
  dispose(): void {
    for (const s of this.handled) this.proc.off(s, this.onSignal);
  }

  private receive(signal: NodeJS.Signals): void {
    if (signal === 'SIGHUP') {
      if (!this.targets) {
        this.reloadPending = true;
        return;
      }
      this.logger?.info('SIGHUP: reloading the config');
      this.reload();
      return;
    }
    if (this.stopping || (this.stopPending && !this.targets)) {
      this.logger?.warn({ signal }, 'second signal: exiting now');
      this.proc.exit(1);
      return;
    }
    if (!this.targets) {
      this.stopPending = signal;
      return;
    }
    this.stop(signal);
  }

  private reload(): void {
    this.targets?.reload().catch((err: unknown) => this.logger?.error({ err }, 'config reload crashed'));
  }

  private stop(signal: NodeJS.Signals): void {
    const targets = this.targets;
    if (!targets || this.stopping) return;
    this.stopping = true;
    this.logger?.info({ signal }, 'stopping');
    const force = setTimeout(() => {
      this.logger?.error('graceful stop took over 10 s: exiting');
      this.proc.exit(1);
    }, 10_000);
    force.unref();
    targets.stop().then(
      () => this.proc.exit(0),
      (err: unknown) => {
        this.logger?.error({ err }, 'error while stopping');
        this.proc.exit(1);
      },
    );
  }
}

/**
 * For commands that do not run long: hands signals back to node's defaults. Returns the exit
 * status a stop signal recorded before now asks for (128 + its number), else null.
 */
export function releaseEarlySignals(early: EarlySignals | undefined, proc: Pick<NodeJS.Process, 'off'> = process): number | null {
  if (!early) return null;
  for (const s of ALL) proc.off(s, early.handler);
  const stop = early.signals.find((s) => s !== 'SIGHUP');
  return stop === 'SIGINT' ? 130 : stop === 'SIGTERM' ? 143 : null;
}
