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

/** Are the non-blank lines of `text` (TABLE_ROWS or more) rows of one delimited table? */
export function isDelimitedTable(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < TABLE_ROWS) return false;
  for (const [code, fewest] of DELIMITERS) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      let k = 0;
      for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) === code) k++;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const [k, rows] of counts) if (k >= fewest && rows >= TABLE_ROW_SHARE * lines.length) return true;
  }
  return false;
}
