import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDelimitedTable, TABLE_ROW_SHARE, TABLE_ROWS_READ } from '../../../src/core/text/delimitedTable.js';

const row = (i: number) => `${i},item ${i},${(i * 7) % 100}`;
const prose = (i: number) => `Line ${i} of prose says something, and then it says no more.`;
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');

/** The rows of the last TABLE_ROWS_READ lines that must hold one count for a table. */
const NEED = Math.ceil(TABLE_ROW_SHARE * TABLE_ROWS_READ);

describe('isDelimitedTable', () => {
  it('reads CSV rows as a table, prose as none', () => {
    assert.equal(isDelimitedTable(lines(20, row)), true);
    assert.equal(isDelimitedTable(lines(300, prose)), false);
  });

  it('decides on the last rows read: a table under a few lines of prose still is one, under more it is not', () => {
    // the prose lines that may end the text, the rows before them filling the lines read
    const fewest = TABLE_ROWS_READ - NEED;
    assert.equal(isDelimitedTable(`${lines(400, row)}\n${lines(fewest, prose)}`), true, `${fewest} lines of prose at the end`);
    assert.equal(isDelimitedTable(`${lines(400, row)}\n${lines(fewest + 1, prose)}`), false, `${fewest + 1} lines of prose at the end`);
  });

  it('gives the same answer wherever the prose stops being read', () => {
    // prose lines, then rows: the rows decide only when prose is short enough
    for (const n of [40, 51, 52, 53, 60, 120]) {
      const text = `${lines(400, row)}\n${lines(n, prose)}`;
      assert.equal(isDelimitedTable(text), TABLE_ROWS_READ - n >= NEED, `${n} lines of prose`);
    }
  });
});
