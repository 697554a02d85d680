/**
 * Text a target chose (its /version, model names, headers, error messages, output excerpts)
 * shown on a terminal as text only: a terminal obeys the control characters in what it is
 * sent, so ESC[2J clears the screen, an OSC 8 sequence makes a link that shows one address
 * and opens another, \r prints over a line already written, and a bidi override shows a line
 * in another order than it has. Each such character is written as its escape instead
 * (\x1b, \r, \u202e), so what is shown is what was received.
 *
 * Escaped: C0 controls except \n and \t, DEL, C1 controls (U+0080 to U+009F: a terminal may
 * read U+009B as CSI), and the bidi embeddings, overrides and isolates U+202A to U+202E and
 * U+2066 to U+2069. A backslash is left as it is: a target writing "\x1b" literally shows the
 * same four characters, and nothing acts on them.
 *
 * The escapes are valid inside a JSON string too, and JSON.stringify never leaves a C0 control
 * raw, so --json output put through this stays the same JSON.
 */

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\r') return '\\r';
  // \xHH is the form people know for C0; DEL, C1 and bidi use \uHHHH, which JSON reads too
  return code < 0x20 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/** The text with every control character and bidi control written as its escape; \n and \t kept. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** A writer that makes everything it writes terminal-safe. */
export function terminalSafeWriter(write: (s: string) => void): (s: string) => void {
  return (s) => write(terminalSafe(s));
}
