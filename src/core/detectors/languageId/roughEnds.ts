/**
 * The shortcut most answers take: the first unit long enough to count from the start and the
 * last one from the end, read by script and function words only (roughLanguage). When they
 * agree the answer shows no switch, and nothing else needs reading: not the other units of
 * the two ends, not the identifier. The walk is the judge's own (languageId.ts, roughAt over
 * the ends' counted units), cut short: it stays among the first FIRST_UNITS and the last
 * LAST_UNITS units of the text, which the ends always hold, and gives up (null: the judge
 * then reads the ends in full) wherever the judge's walk would go on past them. Paragraphs are
 * walked line by line from each end (ParagraphCache.walk), so a long block is not read whole,
 * and a block read whole is kept for the judge.
 */
import { eachParagraphUnit, type ParagraphCache, type ProseParagraph, type ProseUnit } from './proseUnits.js';

/** The first unit with a rough language from one end, or null when the walk cannot tell. */
export interface RoughEnd {
  start: number;
  key: string;
}

export interface RoughWalk {
  /** Units of the text read at most from this end (the ends' share of it). */
  units: number;
  /** Letters a unit needs to count. */
  minLetters: number;
  /** Counted units passed over at most for one with a rough language. */
  search: number;
  /** Letters of a counted unit without a rough language that stops the walk (it could be a tail of its own). */
  stopLetters: number;
}

/** From the start (dir 1) or the end (dir -1) of the text, the first counted unit that has a rough language. */
export function roughEnd(paras: ParagraphCache, dir: 1 | -1, w: RoughWalk): RoughEnd | null {
  const blocks = paras.blocks.length;
  let read = 0;
  let seen = 0;
  // undefined while the walk goes on; what it found (or null) once it stops
  let found: RoughEnd | null | undefined;
  // the start of the unit the walk from the start read before the rest of its paragraph: not read again with the paragraph
  let offered = -1;
  // each unit from this end, only those the walk reaches sliced (a long paragraph costs the unit read, not all of its units)
  const unit = (u: ProseUnit): boolean => {
    if (u.start === offered) return true;
    if (read++ >= w.units) return stop(null);
    const letters = paras.letters(u);
    if (letters < w.minLetters) return true;
    if (seen++ >= w.search) return stop(null);
    const key = paras.roughOf(u);
    if (key !== null) return stop({ start: u.start, key });
    if (letters >= w.stopLetters) return stop(null);
    return true;
  };
  const take = (p: ProseParagraph): boolean => eachParagraphUnit(p, dir, unit);
  // from the start, a paragraph's first unit is read as soon as its first lines fix it: most walks stop at it
  const early =
    dir > 0
      ? (u: ProseUnit): boolean => {
          const go = unit(u);
          offered = u.start;
          return go;
        }
      : undefined;
  const stop = (r: RoughEnd | null): boolean => {
    found = r;
    return false;
  };
  for (let b = dir > 0 ? 0 : blocks - 1; b >= 0 && b < blocks && found === undefined; b += dir)
    paras.walk(b, dir, take, b < blocks - 1 ? early : undefined);
  return found ?? null;
}

/** True when the two ends' first counted units with a rough language are two units that agree. */
export function roughEndsAgree(paras: ParagraphCache, first: RoughWalk, last: RoughWalk): boolean {
  const a = roughEnd(paras, 1, first);
  if (a === null) return false;
  const b = roughEnd(paras, -1, last);
  return b !== null && b.start > a.start && b.key === a.key;
}
