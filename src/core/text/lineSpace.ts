/**
 * ASCII whitespace inside a line: a space, a tab, a carriage return, a vertical tab or a form
 * feed (a line feed ends the line). The readings that walk a short output line by line
 * (whitespace.ts, numberMarkLines.ts) part a line's words and tell a blank line by it.
 */
export function isLineSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0b || c === 0x0c;
}
