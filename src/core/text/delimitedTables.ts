/**
 * isDelimitedTable() asked of several stretches of one text that end at the same place: the
 * repetition readings ask it of the loop's region (once per reading of the loops), of the
 * normalised copies and of the replayed last part, 4-5 times a text on overlapping slices.
 * One reading answers for another when the answer is provably the same: the same end (trailing
 * blanks aside) and a start the first one's rows did not reach past.
 */
import { readDelimitedTable } from './delimitedTable.js';

export class DelimitedTables {
  /** The last reading: the end of its rows in the whole text (trailing blanks aside), its answer, and the starts it holds for. */
  private end = -1;
  private table = false;
  private low = -1;
  private high = -1;

  /** isDelimitedTable(text), where `text` starts at char `start` of the whole text. */
  of(text: string, start: number): boolean {
    // spaces, CRs and line breaks after the last row are blank lines or blanks of that row: they change no row's count,
    // so a reading from after them reads the same rows
    let e = text.length;
    for (; e > 0; e--) {
      const c = text.charCodeAt(e - 1);
      if (c !== 0x20 && c !== 0x0d && c !== 0x0a) break;
    }
    const end = start + e;
    if (end === this.end && start >= this.low && start <= this.high) return this.table;
    const { table, stoppedAt: stop } = readDelimitedTable(text);
    this.end = end;
    this.table = table;
    // a reading that stopped at a line break (prose for sure, or the rows read) holds for every start up to it; one that
    // read to its start, for that start alone
    this.low = stop < 0 ? start : 0;
    this.high = stop < 0 ? start : start + stop;
    return table;
  }
}
