/**
 * Which units of a text the language judge identifies: the first ones, the last ones, an even
 * sample between and the section openers, a fixed number whatever the length. Only the blocks
 * they stand in are read into paragraphs.
 */
import { letterCount } from './charClasses.js';
import { eachParagraphUnit, ParagraphCache, type ParagraphsOf, type ProseUnit, paragraphUnits, UNIT_CHARS } from './proseUnits.js';
import type { LineBlock } from './lineBlocks.js';

/** Units identified from the start: enough for the language the answer opens in. */
export const FIRST_UNITS = 8;
/** Units identified from the end: the tail a drift shows in. */
export const LAST_UNITS = 16;
/** Units sampled evenly between (the first unit of a block): the answer's language when its tail is longer than its start. */
const SAMPLE_UNITS = 32;
/**
 * Titles (with the unit after each) identified, the last ones first: a section in another
 * language starts at its title, which the tail must reach wherever it stands (without them
 * healthy mixes of documents failed: a sample of the units missed the titles).
 */
const SECTION_OPENERS = 24;
/** Blocks read at most around a unit to find the paragraph before or after it (blocks of code or data are skipped over). */
const NEIGHBOUR_BLOCKS = 16;

/**
 * The units to identify, in text order, each with whether it opens a section: the first ones,
 * the last ones, an even sample of those between, and the last titles with the unit after each
 * (the first and last ones only when `endsOnly`); a sampled unit needs `minLetters`. Only the blocks these stand in
 * are read (`paras`, shared with the other readings of the text); the rest of the text is read for line starts only.
 */
export function pickedUnits(
  text: string,
  blocks: readonly LineBlock[],
  minLetters: number,
  endsOnly = false,
  paras: ParagraphsOf = new ParagraphCache(text, blocks).of,
  letters: (u: ProseUnit) => number = (u) => letterCount(u.text),
): Array<[ProseUnit, boolean, boolean]> {
  // whether the paragraph before paragraph i of block b is a title
  const afterTitle = (b: number, i: number): boolean => {
    if (i > 0) return paras(b)[i - 1]!.title;
    for (let c = b - 1; c >= 0 && c >= b - NEIGHBOUR_BLOCKS; c--) {
      const p = paras(c);
      if (p.length > 0) return p[p.length - 1]!.title;
    }
    return false;
  };
  // keyed by start: units start at distinct offsets, in text order
  const picked = new Map<number, [ProseUnit, boolean, boolean]>();
  // `units` are units of paragraph i of block b in order, the first of them its first unit when `fromFirst`
  const add = (b: number, i: number, units: readonly ProseUnit[], fromFirst: boolean, weighs: boolean) => {
    const p = paras(b)[i]!;
    for (let k = 0; k < units.length; k++) {
      const u = units[k]!;
      picked.set(u.start, [u, p.title || (k === 0 && fromFirst && afterTitle(b, i)), weighs || picked.get(u.start)?.[2] === true]);
    }
  };
  // in a long text the first and last units and the section openers, read all, would outweigh the rest: the answer's
  // language is the even sample's (measured: a long Spanish start then English sections failed when the start counted)
  // (a text no longer than the units read, nearly all read, counts whole: measured, a short Korean answer whose one
  // sampled unit was its Chinese tail passed)
  const all = blocks.length <= SAMPLE_UNITS || text.length <= (FIRST_UNITS + LAST_UNITS + SAMPLE_UNITS) * UNIT_CHARS;
  let n = 0;
  for (let b = 0; b < blocks.length && n < FIRST_UNITS; b++) {
    const ps = paras(b);
    for (let i = 0; i < ps.length && n < FIRST_UNITS; i++) {
      const units = paragraphUnits(ps[i]!, FIRST_UNITS - n);
      add(b, i, units, true, all);
      n += units.length;
    }
  }
  n = 0;
  for (let b = blocks.length - 1; b >= 0 && n < LAST_UNITS; b--) {
    const ps = paras(b);
    for (let i = ps.length - 1; i >= 0 && n < LAST_UNITS; i--) {
      // the paragraph's last units, one more when there are: then the first of those kept is not its first unit
      const want = LAST_UNITS - n;
      const tail: ProseUnit[] = [];
      eachParagraphUnit(ps[i]!, -1, (u) => tail.push(u) <= want);
      const whole = tail.length <= want;
      if (!whole) tail.pop();
      add(b, i, tail.reverse(), whole, all);
      n += tail.length;
    }
  }
  if (endsOnly) return [...picked.entries()].sort((x, y) => x[0] - y[0]).map((e) => e[1]);
  // an even sample of the blocks between, for the answer's language when its tail is longer than its start
  const step = blocks.length / (SAMPLE_UNITS + 1);
  sample: for (let s = 1; step >= 1 && s <= SAMPLE_UNITS; s++) {
    // the first unit long enough to count, in this block or the next ones
    for (let b = Math.floor(s * step); b < blocks.length && b < Math.floor(s * step) + NEIGHBOUR_BLOCKS; b++) {
      const ps = paras(b);
      for (let i = 0; i < ps.length; i++) {
        const units = paragraphUnits(ps[i]!, 1);
        if (units.length === 0 || letters(units[0]!) < minLetters) continue;
        add(b, i, units, true, true);
        continue sample;
      }
    }
  }
  n = 0;
  for (let b = blocks.length - 1; b >= 0 && n < SECTION_OPENERS; b--) {
    if (!blocks[b]!.titleLike) continue;
    const ps = paras(b);
    if (ps.length !== 1 || !ps[0]!.title) continue;
    n++;
    add(b, 0, paragraphUnits(ps[0]!), true, all);
    for (let c = b + 1; c < blocks.length && c <= b + NEIGHBOUR_BLOCKS; c++) {
      if (paras(c).length === 0) continue;
      add(c, 0, paragraphUnits(paras(c)[0]!, 1), true, all);
      break;
    }
  }
  return [...picked.entries()].sort((x, y) => x[0] - y[0]).map((e) => e[1]);
}
