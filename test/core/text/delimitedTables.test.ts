import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDelimitedTable, TABLE_ROWS_READ } from '../../../src/core/text/delimitedTable.js';
import { DelimitedTables } from '../../../src/core/text/delimitedTables.js';

const row = (i: number) => `${i},name ${i},${i * 3}.5`;
const prose = (i: number) => `Line ${i} of prose goes on a while, and then it stops.`;

/** Texts whose stretches from different starts to the same end give different answers. */
function texts(): string[] {
  const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => row(from + i)).join('\n');
  const lines = (n: number) => Array.from({ length: n }, (_, i) => prose(i)).join('\n');
  return [
    `${lines(40)}\n${rows(30)}`,
    `${lines(40)}\n${rows(30)}\n \r\n\n`,
    `${rows(10)}\n${lines(3)}\n${rows(TABLE_ROWS_READ + 20, 10)}\t\n`,
    `${rows(400)}\n${lines(60)}`,
    `${lines(5)}\n${rows(6)}  \r\n`,
    `${rows(3)}\n\n${lines(2)}`,
    // a tab after the last row is one more delimiter in that row: four rows of tab-separated data, or three and another
    'x\ty\nx\ty\nx\ty\nx\t\t',
  ];
}

describe('DelimitedTables', () => {
  it("gives isDelimitedTable's answer for any start, whatever was asked before on the same text", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (const text of texts()) {
      const tables = new DelimitedTables();
      // ends at the text's end or just before its trailing blanks and tabs, starts anywhere, in a random order
      const ends = [text.length, text.trimEnd().length, text.length - 1];
      // the whole text to each end, one after another
      for (const a of ends)
        for (const b of ends) {
          const pair = new DelimitedTables();
          for (const end of [a, b])
            assert.equal(pair.of(text.slice(0, end), 0), isDelimitedTable(text.slice(0, end)), `ends ${a} then ${b}`);
        }
      for (let k = 0; k < 300; k++) {
        const end = ends[random(ends.length)]!;
        const start = random(end + 1);
        const s = text.slice(start, end);
        assert.equal(tables.of(s, start), isDelimitedTable(s), `start ${start}, end ${end} of a text of ${text.length}`);
      }
    }
  });

  it('answers again from a reading that stopped before the start asked', () => {
    const text = `${Array.from({ length: 300 }, (_, i) => prose(i)).join('\n')}\n${Array.from({ length: 80 }, (_, i) => prose(i)).join('\n')}`;
    const tables = new DelimitedTables();
    assert.equal(tables.of(text, 0), false);
    // prose is given up after a few dozen lines: a later start that still holds them gets the same answer
    const later = text.indexOf('\n', 1000) + 1;
    assert.equal(tables.of(text.slice(later), later), false);
  });
});
