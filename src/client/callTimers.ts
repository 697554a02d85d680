/** The timers of one call by name; clearing all of them at once is how a call settles. */
export class CallTimers<Name extends string> {
  private readonly timers = new Map<Name, NodeJS.Timeout>();

  /** Starts (or restarts) `name`; a null delay (a disabled timeout) starts nothing. */
  once(name: Name, ms: number | null, fire: () => void): void {
    this.clear(name);
    if (ms !== null) this.timers.set(name, setTimeout(fire, ms));
  }

  /** Starts `name` as a repeating timer. */
  every(name: Name, ms: number, fire: () => void): void {
    this.clear(name);
    this.timers.set(name, setInterval(fire, ms));
  }

  /** Restarts `name` from now, if it runs. */
  refresh(name: Name): void {
    this.timers.get(name)?.refresh();
  }

  clear(name: Name): void {
    const timer = this.timers.get(name);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(name);
  }

  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
