/**
 * Counts turns of the event loop (setImmediate runs once per turn) until stopped: tests use it to
 * show that long work (a big stream read, a /metrics rendering, indexing stored runs) lets the loop
 * turn instead of holding it.
 */
export function countLoopTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop() {
      ticking = false;
    },
  };
}
