/**
 * Items at the end of a list that each are the one before with more added ("river",
 * "river_window", "river_window_mountain" …): a list that runs away by growing its item, as a
 * JSON keyword list written to the token limit does. No item is said again as it was, so the
 * copy readings see no loop; each item is new text, so the template readings see new things.
 *
 * The items are the pieces between commas, semicolons and line breaks (their full-width forms and
 * the ideographic comma too), trimmed of whitespace, quotes and brackets, case folded. Read back
 * from the end, an item holds the one before when it starts with it and is GROWTH chars longer: a
 * word or a part of one added (a prefix spelt a letter at a time, `b, ba, ban`, grows by one). The
 * last item may be cut short by the token limit, and is then left out. Most texts stop at their
 * last or second-to-last item.
 */

export interface GrowingItems {
  /** Items at the end that each hold the one before (1 when the last does not hold the one before it; 0 for no item). */
  items: number;
  /** Char offset where the first item of the run starts (-1 when items < 2). */
  at: number;
  /** Share of the output's chars (its ends trimmed) from that item to the end. */
  coverage: number;
}

export const NO_GROWING: GrowingItems = { items: 0, at: -1, coverage: 0 };

/** Chars an item adds to the one before, at least: a word or a part of one, past a prefix spelt a letter at a time. */
const GROWTH = 2;
/** Items read back from the end at most: a run this long has long been judged. */
const MAX_ITEMS = 4096;

/** One item: its trimmed bounds in the text. */
interface Item {
  from: number;
  to: number;
}

/** The run of items at the end of `text` that each hold the one before. */
export function growingItems(text: string): GrowingItems {
  let end = text.length;
  while (end > 0 && isTrim(text.charCodeAt(end - 1))) end--;
  let start = 0;
  while (start < end && isTrim(text.charCodeAt(start))) start++;
  if (end - start === 0) return NO_GROWING;
  let pos = end;
  let last = nextBack();
  if (last === null) return NO_GROWING;
  let before = nextBack();
  // the last item cut short (the token limit): the run is read from the one before it
  if (before !== null && !holds(text, last, before)) {
    last = before;
    before = nextBack();
  }
  let items = 1;
  let first = last;
  while (before !== null && items < MAX_ITEMS && holds(text, first, before)) {
    items++;
    first = before;
    before = nextBack();
  }
  if (items < 2) return { items, at: -1, coverage: 0 };
  return { items, at: first.from, coverage: (end - first.from) / (end - start) };

  /** The item that ends at `pos` (read back to the separator before it), trimmed; null at the text's start. Empty pieces are skipped. */
  function nextBack(): Item | null {
    while (pos > start) {
      let k = pos;
      while (k > start && !isSeparator(text.charCodeAt(k - 1))) k--;
      let a = k;
      let b = pos;
      while (a < b && isTrim(text.charCodeAt(a))) a++;
      while (b > a && isTrim(text.charCodeAt(b - 1))) b--;
      pos = k > start ? k - 1 : start;
      if (b > a) return { from: a, to: b };
    }
    return null;
  }
}

/** Does `item` hold `before`: start with it, case folded, and run GROWTH chars longer? */
function holds(text: string, item: Item, before: Item): boolean {
  const n = before.to - before.from;
  if (n < GROWTH || item.to - item.from < n + GROWTH) return false;
  for (let k = 0; k < n; k++) if (fold(text.charCodeAt(item.from + k)) !== fold(text.charCodeAt(before.from + k))) return false;
  return true;
}

/** ASCII letters case folded (an item's other chars are compared as written). */
function fold(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** ASCII chars that part items (1: , ; and a line break) or are trimmed from an item's ends (2: whitespace, quotes, brackets). */
const ASCII = new Uint8Array(128);
for (const c of ',;\n') ASCII[c.charCodeAt(0)] = 1;
for (const c of ' \t\r"\'`[]{}()') ASCII[c.charCodeAt(0)] = 2;

/** , ; and a line break, and their full-width forms and the ideographic comma. */
function isSeparator(c: number): boolean {
  return c < 0x80 ? ASCII[c] === 1 : c === 0xff0c || c === 0xff1b || c === 0x3001;
}

/** Whitespace, quotes and brackets around an item. */
function isTrim(c: number): boolean {
  return c < 0x80 && ASCII[c] === 2;
}
