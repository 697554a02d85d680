/**
 * The word-salad front: the windows of spaced prose that no other window beats on both counts
 * (fewer function words and fewer breaks). Kept so the judge can read the window with the
 * fewest function words under whatever saladBreakShare a probe sets.
 */

/** A window of Latin or Cyrillic prose read for word salad: its function-word share, its break share, where it starts. */
export interface SaladPoint {
  func: number;
  breaks: number;
  at: number;
}

/** The window with the fewest function words among those of at most `maxBreaks` break share, or null. */
export function saladUnder(front: readonly SaladPoint[], maxBreaks: number): SaladPoint | null {
  let best: SaladPoint | null = null;
  // by break share rising, function-word share falling: the last one under the bound has the fewest function words
  for (const p of front) {
    if (p.breaks > maxBreaks) break;
    best = p;
  }
  return best;
}

/**
 * Adds a window (its function-word share, break share and start) to the front unless an earlier
 * one has no more function words and no more breaks; drops those it beats. Most windows are
 * beaten: the point is made only for one that joins.
 */
export function addSaladPoint(front: SaladPoint[], func: number, breaks: number, at: number): void {
  for (const q of front) if (q.breaks <= breaks && q.func <= func) return;
  let k = 0;
  for (const q of front) if (!(q.breaks >= breaks && q.func >= func)) front[k++] = q;
  front.length = k;
  let i = 0;
  while (i < front.length && front[i]!.breaks < breaks) i++;
  front.splice(i, 0, { func, breaks, at });
}
