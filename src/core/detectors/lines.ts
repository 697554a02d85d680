/** Repeated lines: the duplicate-line char fraction (Gopher-style) and the most repeated line. Reported, not judged: cycling judges returns of lines. */
import type { Finding } from '../finding.js';
import { PlainStateDetector, type EngineDetector } from './engineDetector.js';
import { excerptOf } from './loops.js';

/** Lines longer than this are not counted for the repeated-line figures. */
const MAX_LINE = 2000;

export interface LineFigures {
  nonBlankLines: number;
  /** Chars of non-blank lines (trimmed). */
  lineChars: number;
  /** Chars of lines that occur more than once (every occurrence counted). */
  dupLineChars: number;
  /** How many times the most repeated non-blank line occurs. */
  topLineCount: number;
  /** That line, flattened and cut to 120 chars. */
  topLine: string;
}

interface LineState {
  nonBlankLines: number;
  lineChars: number;
  dupLineChars: number;
  topLineCount: number;
  topLine: string;
}

export class LineDetector extends PlainStateDetector<LineState> implements EngineDetector<LineFigures> {
  readonly name = 'lines';
  private readonly counts = new Map<string, number>();

  constructor() {
    super({ nonBlankLines: 0, lineChars: 0, dupLineChars: 0, topLineCount: 0, topLine: '' });
  }

  line(start: number, end: number, text: string): void {
    const s = this.s;
    const len = end - start;
    if (len <= 0) return;
    if (len > MAX_LINE) {
      s.nonBlankLines++;
      s.lineChars += len;
      return;
    }
    const line = text.trim();
    if (line.length === 0) return;
    s.nonBlankLines++;
    s.lineChars += line.length;
    const count = (this.counts.get(line) ?? 0) + 1;
    if (!this.speculative) this.counts.set(line, count);
    if (count === 2) s.dupLineChars += 2 * line.length;
    else if (count > 2) s.dupLineChars += line.length;
    if (count > s.topLineCount) {
      s.topLineCount = count;
      s.topLine = line;
    }
  }

  figures(): LineFigures {
    return { ...this.s, topLine: excerptOf(this.s.topLine, 120) };
  }

  judge(): Finding[] {
    return [];
  }
}
