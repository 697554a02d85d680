import { escapeHtml } from './htmlPage.js';

/**
 * Model output on a page, shown as it is rather than interpreted: bidi controls (an RLO shows the
 * rest of a line reversed), zero-width and other invisible format characters, NUL and other
 * controls become a visible box naming the code point, as a code viewer shows them. Only the
 * display changes: offsets, excerpts and the JSON answers keep the raw text.
 *
 * Two joiners are left as they are where a script needs them: ZWJ and ZWNJ between two
 * non-ASCII letters, marks or pictographs (emoji sequences, Persian and Indic words). Hidden in
 * ASCII (`pass\u200Bword`) or at a piece's edge they are shown.
 */
// Built from escapes: a literal class would put a combining character (U+034F) beside others.
const INVISIBLE = new RegExp(
  [
    '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e]',
    '[\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb]',
    '\\u034f',
    '[\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e007f}]',
  ].join('|'),
  'gu',
);

const JOINERS = new Set(['\u200c', '\u200d']);
const SCRIPT_NEIGHBOUR = /\p{L}|\p{M}|\p{Extended_Pictographic}|\p{Emoji_Modifier}/u;

const NAMES: ReadonlyMap<number, string> = new Map([
  [0x0000, 'NULL'],
  [0x001b, 'ESCAPE'],
  [0x007f, 'DELETE'],
  [0x00ad, 'SOFT HYPHEN'],
  [0x061c, 'ARABIC LETTER MARK'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x2028, 'LINE SEPARATOR'],
  [0x2029, 'PARAGRAPH SEPARATOR'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE (BOM)'],
]);

const codePoint = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

function nameOf(cp: number): string {
  const name = NAMES.get(cp);
  if (name) return name;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'control character';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'TAG character (invisible; can spell hidden text)';
  return 'invisible format character';
}

/** `text` as HTML text: escaped, with every invisible or control code point shown as a named box. */
export function escapeVisible(text: string): string {
  let html = '';
  let from = 0;
  for (const m of text.matchAll(INVISIBLE)) {
    const at = m.index;
    const ch = m[0];
    if (JOINERS.has(ch) && joinsScript(text, at, ch.length)) continue;
    const cp = ch.codePointAt(0)!;
    html += `${escapeHtml(text.slice(from, at))}<span class="cp" title="${codePoint(cp)} ${nameOf(cp)}">${codePoint(cp)}</span>`;
    from = at + ch.length;
  }
  return from === 0 ? escapeHtml(text) : html + escapeHtml(text.slice(from));
}

/** ZWJ or ZWNJ between two characters of a script or emoji that use it. */
function joinsScript(text: string, at: number, length: number): boolean {
  const before = String.fromCodePoint(text.codePointAt(at - 1 >= 0 && /[\udc00-\udfff]/.test(text[at - 1]!) ? at - 2 : at - 1) ?? 0x20);
  const after = String.fromCodePoint(text.codePointAt(at + length) ?? 0x20);
  return before > '\u007f' && after > '\u007f' && SCRIPT_NEIGHBOUR.test(before) && SCRIPT_NEIGHBOUR.test(after);
}
