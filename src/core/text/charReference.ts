/**
 * HTML and XML character references that stand for whitespace (`&nbsp;`, `&ensp;`, `&#160;`,
 * `&#x2003;`): a model that writes HTML indents a poem or pads a table cell with them, and
 * they read as the whitespace they stand for, not as the words `ensp` and `nbsp` said again
 * and again. Other references (`&amp;`, `&lt;`) stay what they are: a char of the text.
 */

/** The longest reference read, `&` and `;` included (`&ThickSpace;`, `&#x0000A0;`). */
export const MAX_REFERENCE = 14;

/** Named references of whitespace (HTML's list; names are case-sensitive there, a few are read in any case). */
const NAMED = new Set([
  'nbsp',
  'ensp',
  'emsp',
  'emsp13',
  'emsp14',
  'numsp',
  'puncsp',
  'thinsp',
  'hairsp',
  'MediumSpace',
  'ThickSpace',
  'NonBreakingSpace',
  'ZeroWidthSpace',
  'NewLine',
  'Tab',
]);

/** Code points of whitespace a numeric reference may name. */
function isSpaceCode(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    cp === 0x20 ||
    cp === 0xa0 ||
    (cp >= 0x2000 && cp <= 0x200b) ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** Can `c` go on a reference after `&` (a name char, `#`, `x`, a digit)? */
export function isReferenceChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x23;
}

/** Is `body` (what stands between `&` and `;`) a reference of whitespace? */
export function isWhitespaceReference(body: string): boolean {
  if (body.charCodeAt(0) !== 0x23) return NAMED.has(body) || NAMED.has(body.toLowerCase());
  const hex = body.charCodeAt(1) === 0x78 || body.charCodeAt(1) === 0x58;
  const digits = body.slice(hex ? 2 : 1);
  if (digits === '' || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return false;
  return isSpaceCode(Number.parseInt(digits, hex ? 16 : 10));
}
