/**
 * Where the text is code, markup or an address rather than the writer's language: fenced
 * code blocks (a line opening with ```), inline code spans (`...`), HTML/XML tags, HTML
 * comments and URLs. Their letters say nothing about the language of the prose, their
 * repeats are structure, and their tokens are flagged F_CODE. A char-by-char state machine
 * with a few numbers of state, so any split of the text gives the same marks.
 */

/** An HTML tag is shorter than this; past it a '<' was not a tag. */
const MAX_TAG = 300;
/** An HTML comment is shorter than this; past it an unclosed "<!--" no longer hides the text. */
const MAX_COMMENT = 4096;

export interface MarkupState {
  /** Inside a fenced code block. */
  fence: boolean;
  /** Inside an inline code span (a line break ends it). */
  inline: boolean;
  /** Backticks that open the current line so far; -1 once anything else came. */
  lineTicks: number;
  /** 0 outside; 1 right after '<'; 2 inside a tag. */
  tag: number;
  tagStart: number;
  /** Progress through "://" (1 after ':', 2 after ':/'), 3 inside the URL. */
  url: number;
  /** Progress through "<!--" (1-3), 4 inside a comment, 5-6 through its closing "--". */
  comment: number;
  commentStart: number;
}

export function newMarkup(): MarkupState {
  return { fence: false, inline: false, lineTicks: 0, tag: 0, tagStart: 0, url: 0, comment: 0, commentStart: 0 };
}

/** True while the text at this point is code, markup or an address. */
export function inCode(m: MarkupState): boolean {
  return m.fence || m.inline || m.tag === 2 || m.url === 3 || m.comment >= 4;
}

/** A whitespace char; `newline` for '\n'. */
export function markupSpace(m: MarkupState, newline: boolean): void {
  if (m.lineTicks > 0) endLineTicks(m);
  m.url = 0;
  if (m.tag === 1) m.tag = 0;
  if (m.comment > 4) m.comment = 4;
  else if (m.comment < 4) m.comment = 0;
  if (newline) {
    m.tag = 0;
    m.inline = false;
    m.lineTicks = 0;
  }
}

/** The first char of a word (letter, digit, solo letter) at `pos`. */
export function markupWord(m: MarkupState, pos: number): void {
  if (m.lineTicks > 0) endLineTicks(m);
  else m.lineTicks = -1;
  if (m.url === 1 || m.url === 2) m.url = 0; // "C:/path" is no URL
  if (m.comment > 4) m.comment = 4;
  else if (m.comment < 4) m.comment = 0;
  if (m.tag === 1) m.tag = 2;
  else if (m.tag === 2 && pos - m.tagStart > MAX_TAG) m.tag = 0; // a stray '<' in code or prose
}

/** A punctuation char `c` at `pos`. */
export function markupPunct(m: MarkupState, c: number, pos: number): void {
  if (c === 0x60) {
    if (m.lineTicks >= 0) {
      // a line opening with three backticks opens or closes a code block
      if (++m.lineTicks === 3) {
        m.fence = !m.fence;
        m.inline = false;
      }
    } else if (!m.fence) m.inline = !m.inline;
    return;
  }
  if (m.lineTicks > 0) endLineTicks(m);
  else m.lineTicks = -1;
  comment(m, c, pos);
  if (c === 0x3c) {
    m.tag = 1;
    m.tagStart = pos;
  } else if (c === 0x3e) m.tag = 0;
  else if (m.tag === 1) m.tag = c === 0x2f || c === 0x21 ? 2 : 0;
  if (m.url === 3) {
    // inside a URL until a space or what closes a link: ) ] > " ' <
    if (c === 0x29 || c === 0x5d || c === 0x3e || c === 0x22 || c === 0x27 || c === 0x3c) m.url = 0;
  } else if (c === 0x3a) m.url = 1;
  else if (c === 0x2f && m.url > 0) m.url++;
  else m.url = 0;
}

/** The backticks that opened a line were one or two: inline code marks after all. */
function endLineTicks(m: MarkupState): void {
  if (m.lineTicks < 3 && !m.fence && m.lineTicks % 2 === 1) m.inline = !m.inline;
  m.lineTicks = -1;
}

/** "<!--" opens an HTML comment (outside code blocks) and "-->" closes it, or 4 KB later (an unclosed one). */
function comment(m: MarkupState, c: number, pos: number): void {
  if (m.comment >= 4) {
    if (c === 0x2d) m.comment = m.comment === 4 ? 5 : 6;
    else if ((c === 0x3e && m.comment === 6) || pos - m.commentStart > MAX_COMMENT) m.comment = 0;
    else m.comment = 4;
  } else if (c === 0x3c) m.comment = m.fence ? 0 : 1;
  else if (c === 0x21 && m.comment === 1) m.comment = 2;
  else if (c === 0x2d && (m.comment === 2 || m.comment === 3)) {
    if (++m.comment === 4) m.commentStart = pos;
  } else m.comment = 0;
}
