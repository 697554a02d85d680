/**
 * Empty output and whitespace floods: a model that emits nothing, only blanks, or a brace and
 * then screens of spaces and newlines. Judged on the share of the output that is whitespace
 * and on the longest whitespace run, and where it is; and, for a short output, on whether it
 * holds anything but marks (`{` and then blank lines says nothing, however few chars it has) and
 * on how many of its lines are blank (more than every other line is no layout text uses).
 */
import { isLineSpace } from '../text/lineSpace.js';
import type { Detector, Scan, Values } from './detector.js';
import { type Finding, finding, fmt } from './finding.js';

export const WHITESPACE_KINDS = ['empty', 'whitespace_flood'] as const;
export type WhitespaceKind = (typeof WHITESPACE_KINDS)[number];

const THRESHOLDS = {
  whitespaceRunFail: {
    value: 800,
    why: 'a whitespace run that fails wherever it is. Healthy texts reach 316 (a padded table cell; npm run bench -- thresholds), the real floods run 2,500-57,000',
  },
  whitespaceRunEndFail: {
    value: 200,
    why: 'a whitespace run that fails when the output ends in it (a flood does not come back). Deep indentation plus blank lines stays under 100 at the ends of healthy texts cut at random points',
  },
  whitespaceShareFail: {
    value: 0.9,
    why: 'share of an output of 32+ chars that is whitespace, from which it fails: "{" then only spaces and blank lines. Healthy texts stay under 0.6 (indented code)',
  },
  marksOnlyBlankLines: {
    value: 1,
    why: 'blank lines of an output that holds no letter or digit of any script, only ASCII marks and whitespace ("{" then blank lines: nothing was said), from which it is empty. Of 29,324 healthy readings (every healthy text of the three real corpora, test/corpus and the real files, whole and cut at 100-1,000 chars and at 4 random points) 9 hold no letter or digit, all cut after 1 to 75 chars ("[\\n   {\\n", "/*"), and none of them a blank line; npm run bench -- thresholds',
  },
  blankLineShareFail: {
    value: 0.6,
    why: 'share of the lines of a short output (up to 4,096 chars, its ends trimmed, 4+ blank lines) that are blank, from which it is a flood of line breaks. Text that never puts two blank lines together stays at or under 0.5 (a blank line after every line), and no healthy reading goes past it: 53,569 of 3+ lines (the healthy readings of the three real corpora, test/corpus and the real files, whole and cut; 143,709 translations; 2,377 manual pages) reach 0.5 at most; the real collapses past it read 0.64 to 0.98; npm run bench -- thresholds',
  },
} as const;

/** Blank lines a short output holds at least before their share is read: `Yes.` and `No.` three blank lines apart are spaced oddly, not a flood. */
const BLANK_LINES_MIN = 4;

/** Chars up to which the whole text is read for a letter or digit: past them a text of marks alone is a flood, for the flood rules. */
const MARKS_READ_CHARS = 4096;

export interface WhitespaceFigures {
  chars: number;
  /** Whitespace chars in the text. */
  spaceChars: number;
  /** Longest run of whitespace chars and where it starts (-1 when none). */
  longestRun: number;
  longestRunStart: number;
  /** Whitespace chars after the last token. */
  trailingRun: number;
  /**
   * Blank lines (a line break, whitespace only, a line break) of a text of up to MARKS_READ_CHARS
   * chars that holds no letter or digit, only ASCII marks and whitespace; null for any other text.
   */
  marksOnlyBlankLines: number | null;
  /**
   * Share of the lines of a text of up to MARKS_READ_CHARS chars, its leading and trailing
   * whitespace left out, that are blank; null for a longer text, in the live check, or under
   * BLANK_LINES_MIN blank lines.
   */
  blankLineShare: number | null;
}

export const whitespace = {
  name: 'whitespace' as const,
  kinds: WHITESPACE_KINDS,
  thresholds: THRESHOLDS,
  liveTokens: 1,
  figures(scan: Scan): WhitespaceFigures {
    const sp = scan.spaces;
    let longest = 0;
    let at = -1;
    for (let i = 0; i < sp.n; i++) {
      if (sp.length[i]! > longest) {
        longest = sp.length[i]!;
        at = sp.start[i]!;
      }
    }
    const t = scan.tokens;
    const lastEnd = t.n > 0 ? t.end[t.n - 1]! : 0;
    const lines = scan.live || scan.chars > MARKS_READ_CHARS || sp.total === scan.chars ? null : countLines(scan.text());
    return {
      chars: scan.chars,
      spaceChars: sp.total,
      longestRun: longest,
      longestRunStart: at,
      trailingRun: scan.chars - lastEnd,
      marksOnlyBlankLines: lines?.marksOnly ? lines.blank : null,
      blankLineShare: lines && lines.innerBlank >= BLANK_LINES_MIN ? lines.innerBlank / (lines.innerBlank + lines.filled) : null,
    };
  },
  judge(f: WhitespaceFigures, t: Values<typeof THRESHOLDS>): Array<Finding<WhitespaceKind>> {
    if (f.chars === 0) return [finding('empty', 'fail', 0, 'no output')];
    if (f.spaceChars === f.chars)
      return [finding('empty', 'fail', 0, `${f.chars} whitespace chars and nothing else`, f.chars >= t.whitespaceRunFail)];
    const share = f.spaceChars / f.chars;
    const run = `${f.longestRun} whitespace chars in a row at char ${f.longestRunStart}`;
    if (f.trailingRun >= t.whitespaceRunEndFail)
      return [
        finding(
          'whitespace_flood',
          'fail',
          f.chars - f.trailingRun,
          `the output ends in ${f.trailingRun} whitespace chars`,
          f.trailingRun >= t.whitespaceRunFail,
        ),
      ];
    if (f.longestRun >= t.whitespaceRunFail) return [finding('whitespace_flood', 'fail', f.longestRunStart, run)];
    if (f.chars >= 32 && share >= t.whitespaceShareFail)
      return [finding('whitespace_flood', 'fail', Math.max(0, f.longestRunStart), `${fmt(100 * share, 0)}% of the output is whitespace`)];
    if (f.marksOnlyBlankLines !== null && f.marksOnlyBlankLines >= t.marksOnlyBlankLines)
      return [
        finding(
          'empty',
          'fail',
          0,
          `no letter or digit: ${f.chars - f.spaceChars} mark${f.chars - f.spaceChars === 1 ? '' : 's'} and ${f.spaceChars} whitespace chars, ${f.marksOnlyBlankLines} blank line${f.marksOnlyBlankLines === 1 ? '' : 's'}`,
        ),
      ];
    if (f.blankLineShare !== null && f.blankLineShare >= t.blankLineShareFail)
      return [finding('whitespace_flood', 'fail', 0, `${fmt(100 * f.blankLineShare, 0)}% of the lines of a short output are blank`)];
    if (f.longestRun >= t.whitespaceRunEndFail)
      return [finding('whitespace_flood', 'warn', f.longestRunStart, `${run}, and the text moves on after it`)];
    return [];
  },
} satisfies Detector<WhitespaceFigures, WhitespaceKind, typeof THRESHOLDS>;

/** The lines of a short text, counted in one pass. */
export interface LineCounts {
  /** Blank lines: a line break, whitespace only, a line break. */
  blank: number;
  /** Blank lines between two lines that hold something (the text's ends trimmed). */
  innerBlank: number;
  /** Lines that hold something but whitespace. */
  filled: number;
  /** Every char is whitespace or an ASCII mark: no letter, digit or other symbol. */
  marksOnly: boolean;
}

/** Counts the blank and the filled lines of `text`, and whether it holds marks alone. */
export function countLines(text: string): LineCounts {
  let blank = 0;
  let innerBlank = 0;
  let pending = 0;
  let filled = 0;
  let lineFilled = false;
  let seenBreak = false;
  let marksOnly = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (lineFilled) {
        filled++;
        innerBlank += pending;
        pending = 0;
      } else {
        if (seenBreak) blank++;
        if (filled > 0) pending++;
      }
      seenBreak = true;
      lineFilled = false;
    } else if (isLineSpace(c)) {
      // whitespace within a line
    } else {
      lineFilled = true;
      if (marksOnly && !((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126))) marksOnly = false;
    }
  }
  if (lineFilled) {
    filled++;
    innerBlank += pending;
  }
  return { blank, innerBlank, filled, marksOnly };
}
