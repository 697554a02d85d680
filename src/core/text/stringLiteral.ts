/**
 * Is a char inside a short string literal of code: between two of the same quote (' " `) on its
 * line, each quote standing where code puts one (after a bracket, an operator, a comma or
 * whitespace; before one of those or the line's end)? Tests and fixtures write control chars
 * into such literals (`['\x07', '%07']`, an ANSI colour in a template string); a broken decode
 * leaves them in words, where no quote encloses them. An apostrophe inside a word opens nothing.
 */

/** Chars a literal read this way may span on either side of the char. */
const LITERAL_CHARS = 120;

function isQuote(c: number): boolean {
  return c === 0x27 || c === 0x22 || c === 0x60;
}

/** Where code puts a quote: at a line's edge, after or before whitespace, a bracket, an operator or a separator. */
function isCodeEdge(c: number): boolean {
  return (
    Number.isNaN(c) ||
    c === 0x20 ||
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x28 ||
    c === 0x29 ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x2c ||
    c === 0x3b ||
    c === 0x3a ||
    c === 0x3d ||
    c === 0x2b ||
    c === 0x2e
  );
}

export function inStringLiteral(text: string, i: number): boolean {
  let open = -1;
  for (let j = i - 1; j >= 0 && j >= i - LITERAL_CHARS; j--) {
    const c = text.charCodeAt(j);
    if (c === 0x0a) return false;
    if (isQuote(c)) {
      open = j;
      break;
    }
  }
  if (open < 0 || !isCodeEdge(open > 0 ? text.charCodeAt(open - 1) : Number.NaN)) return false;
  const quote = text.charCodeAt(open);
  for (let j = i + 1; j < text.length && j <= i + LITERAL_CHARS; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x0a) return false;
    if (c === quote) return isCodeEdge(text.charCodeAt(j + 1));
  }
  return false;
}
