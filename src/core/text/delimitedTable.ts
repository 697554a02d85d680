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

/** Per delimiter, how many rows hold each count of it: scratch shared by every call (each clears it first). */
const ROWS = new Int32Array(DELIMITERS.length * (MOST_COLUMNS + 1));
/** The delimiters as strings, for indexOf. */
const DELIMITER_CHARS = DELIMITERS.map(([code]) => String.fromCharCode(code));

/** Are the non-blank lines of `text` (TABLE_ROWS or more; the last TABLE_ROWS_READ read) rows of one delimited table? */
export function isDelimitedTable(text: string): boolean {
  return readDelimitedTable(text).table;
}

/** What one reading of a text as a delimited table found. */
export interface TableReading {
  table: boolean;
  /**
   * Where the reading stopped: the index in the text of the line break above the last row it read, or -1 when it read
   * the text to its start. A text that starts at or before that line break, with the same end, gets the same answer
   * (delimitedTables.ts shares readings so).
   */
  stoppedAt: number;
}

/** isDelimitedTable's reading, with where it stopped. */
export function readDelimitedTable(text: string): TableReading {
  let stoppedAt = -1;
  // per delimiter, how many rows hold each count of it: the rows read back from the end, each found and its delimiters
  // counted by the string's own searches (a loop over char codes in script reads a long text several times slower)
  const rows = ROWS;
  rows.fill(0);
  let lines = 0;
  // the most rows that hold one count (of a delimiter, at least its fewest) so far
  let most = 0;
  let end = text.length;
  for (;;) {
    const nl = end > 0 ? text.lastIndexOf('\n', end - 1) : -1;
    // a row holds a char other than a space, a tab or a CR
    let blank = true;
    for (let i = end - 1; i > nl; i--) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0d && c !== 0x09) {
        blank = false;
        break;
      }
    }
    if (!blank) {
      lines++;
      const row = text.slice(nl + 1, end);
      for (let d = 0; d < DELIMITERS.length; d++) {
        const k = Math.min(occurrences(row, DELIMITER_CHARS[d]!), MOST_COLUMNS);
        const r = ++rows[d * (MOST_COLUMNS + 1) + k]!;
        if (k >= DELIMITERS[d]![1] && r > most) most = r;
      }
    }
    if (nl < 0) break;
    // prose: even if every row still to read held the commonest count, it would stay under the share of rows
    if (lines - most >= HOPELESS) return { table: false, stoppedAt: nl };
    if (lines >= TABLE_ROWS_READ) {
      stoppedAt = nl;
      break;
    }
    end = nl;
  }
  return { table: lines >= TABLE_ROWS && holdsCommonCount(rows, lines), stoppedAt };
}

/** True when, for one delimiter, TABLE_ROW_SHARE of the `lines` rows read hold one count of it (its fewest or more). */
function holdsCommonCount(rows: Int32Array, lines: number): boolean {
  for (let d = 0; d < DELIMITERS.length; d++) {
    const fewest = DELIMITERS[d]![1];
    for (let k = fewest; k <= MOST_COLUMNS; k++) if (rows[d * (MOST_COLUMNS + 1) + k]! >= TABLE_ROW_SHARE * lines) return true;
  }
  return false;
}

/** Occurrences of the char `c` in `s`. */
function occurrences(s: string, c: string): number {
  let n = 0;
  for (let i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) n++;
  return n;
}
