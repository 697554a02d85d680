/**
 * Whether a UTF-16 unit is one JavaScript's `\s` matches: ASCII and Unicode spaces, line and
 * paragraph separators, the byte order mark (every such char is in the BMP, so units are exact).
 * For readers that split or flatten as `\s+` does, without a regular expression.
 */
export function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
