/**
 * Rows of a delimited table (CSV, TSV, semicolon-separated, pipe and markdown tables): lines
 * that hold the same count of one delimiter. Data rows share a template by design, so a
 * stretch of them returning to the same material is a table, not a list that runs away;
 * copies of a row said again word for word are still a loop.
 */

/** Delimiters of a table row, and the fewest a row holds (two columns of tab-separated data have one tab). */
const DELIMITERS: ReadonlyArray<[code: number, fewest: number]> = [
  [0x2c, 2], // ,
  [0x09, 1], // tab
  [0x3b, 2], // ;
  [0x7c, 2], // |
];
/** Fewest rows that make a table. */
export const TABLE_ROWS = 4;
/** Share of the rows that hold the common count of the delimiter (a quoted field with a comma in it changes one row's count). */
export const TABLE_ROW_SHARE = 0.8;

/** For each ASCII char, the index of the delimiter it is in DELIMITERS, or -1. */
const DELIMITER_INDEX = new Int8Array(128).fill(-1);
DELIMITERS.forEach(([code], d) => {
  DELIMITER_INDEX[code] = d;
});

/** Rows read, back from the end of the text: a table is judged on its last rows, whatever its length. */
export const TABLE_ROWS_READ = 256;
/**
 * Rows read that do not hold the commonest count from which no table can be found any more: with
 * TABLE_ROWS_READ rows at most, the rows still to read add as many to that count as to the rows,
 * so more than (1 - TABLE_ROW_SHARE) * TABLE_ROWS_READ (51.2) rows short stays short (52).
 */
const HOPELESS = Math.floor((1 - TABLE_ROW_SHARE) * TABLE_ROWS_READ) + 1;
/** Most delimiters of one kind counted on a row (a row of more columns counts as this many). */
const MOST_COLUMNS = 63;

/** Are the non-blank lines of `text` (TABLE_ROWS or more; the last TABLE_ROWS_READ read) rows of one delimited table? */
export function isDelimitedTable(text: string): boolean {
  // per delimiter, how many rows hold each count of it: one pass of char codes back from the end
  const rows = new Int32Array(DELIMITERS.length * (MOST_COLUMNS + 1));
  const counts = new Int32Array(DELIMITERS.length);
  let lines = 0;
  let blank = true;
  // the most rows that hold one count (of a delimiter, at least its fewest) so far
  let most = 0;
  const endRow = () => {
    if (!blank) {
      lines++;
      for (let d = 0; d < DELIMITERS.length; d++) {
        const k = Math.min(counts[d]!, MOST_COLUMNS);
        const r = ++rows[d * (MOST_COLUMNS + 1) + k]!;
        if (k >= DELIMITERS[d]![1] && r > most) most = r;
      }
    }
    counts.fill(0);
    blank = true;
  };
  for (let i = text.length - 1; i >= 0 && lines < TABLE_ROWS_READ; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      endRow();
      // prose: even if every row still to read held the commonest count, it would stay under the share of rows
      if (lines - most >= HOPELESS) return false;
      continue;
    }
    if (c !== 0x20 && c !== 0x0d && c !== 0x09) blank = false;
    if (c < 128) {
      const d = DELIMITER_INDEX[c]!;
      if (d >= 0) counts[d]!++;
    }
  }
  if (lines < TABLE_ROWS_READ) endRow();
  if (lines < TABLE_ROWS) return false;
  for (let d = 0; d < DELIMITERS.length; d++) {
    const fewest = DELIMITERS[d]![1];
    for (let k = fewest; k <= MOST_COLUMNS; k++) if (rows[d * (MOST_COLUMNS + 1) + k]! >= TABLE_ROW_SHARE * lines) return true;
  }
  return false;
}
