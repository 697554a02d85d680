import { escapeHtml } from './htmlPage.js';
import { escapeVisible } from './visibleText.js';

/** Copies of the repeated unit highlighted one by one; the rest of the loop is one element. */
export const MAX_LOOP_MARKS = 200;

export interface OutputMarks {
  /** Char offset of the collapse onset, or -1. */
  onset: number;
  /** The reported loop: where it starts, its unit length in chars and where it ends; null when none. */
  loop: { start: number; period: number; end: number } | null;
  /** Prefix of the element ids ("s0-content"): the onset mark gets id `${id}-onset`. */
  id: string;
  /** The onset mark's tooltip. */
  onsetTitle: string;
}

/**
 * The output text as escaped HTML (invisible and control characters shown as boxes: visibleText.ts), with an empty <mark class="onset"> (labelled by the style
 * sheet) at the collapse onset and each copy of the repeated unit in a <mark class="loop">,
 * every other one `alt` so the unit boundaries show. At most MAX_LOOP_MARKS copies are
 * marked, so a 1 MB loop makes a page of a few hundred elements, not of a million.
 */
export function markOutput(text: string, marks: OutputMarks): string {
  const n = text.length;
  const onset = marks.onset >= 0 && marks.onset <= n ? marks.onset : -1;
  const loop =
    marks.loop && marks.loop.period > 0 && marks.loop.start >= 0 && marks.loop.start < n
      ? { start: marks.loop.start, period: marks.loop.period, end: Math.min(n, Math.max(marks.loop.end, marks.loop.start)) }
      : null;
  // Cut points: the onset, and the copy boundaries up to the marked count, then the loop's end.
  const cuts = new Set<number>([0, n]);
  // A cut never splits a surrogate pair (an emoji would turn into two replacement chars).
  const add = (at: number) => cuts.add(at > 0 && at < n && isLowSurrogate(text.charCodeAt(at)) ? at + 1 : at);
  if (onset >= 0) cuts.add(onset);
  let markedEnd = -1;
  if (loop) {
    let k = 0;
    for (let at = loop.start; at < loop.end && k <= MAX_LOOP_MARKS; at += loop.period, k++) add(at);
    markedEnd = Math.min(loop.end, loop.start + MAX_LOOP_MARKS * loop.period);
    add(markedEnd);
    add(loop.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    if (a === onset) html += `<mark class="onset" id="${escapeHtml(marks.id)}-onset" title="${escapeHtml(marks.onsetTitle)}"></mark>`;
    const b = points[i + 1];
    if (b === undefined || b <= a) continue;
    const piece = escapeVisible(text.slice(a, b));
    if (loop && a >= loop.start && a < markedEnd) {
      const copy = Math.floor((a - loop.start) / loop.period);
      html += `<mark class="loop${copy % 2 ? ' alt' : ''}" data-copy="${copy + 1}">${piece}</mark>`;
    } else if (loop && a >= markedEnd && a < loop.end) {
      html += `<span class="loop-rest">${piece}</span>`;
    } else {
      html += piece;
    }
  }
  return html;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Visible stand-ins for blanks: a space ␣, a newline ↵ (the line still breaks), a tab ⇥, any other blank ·. */
const BLANK_MARKS: Readonly<Record<string, string>> = { ' ': '␣', '\n': '↵\n', '\t': '⇥', '\r': '␍' };

/**
 * A text of blanks only as escaped HTML that shows each blank: an invisible output made visible.
 * A blank that is also an invisible format character (U+2028, U+FEFF, a vertical tab) gets the
 * named box of escapeVisible, as in any other output.
 */
export function visibleWhitespace(text: string): string {
  return `<span class="ws">${text.replace(/\s/g, (c) => BLANK_MARKS[c] ?? (escapeVisible(c) !== c ? escapeVisible(c) : '·'))}</span>`;
}
