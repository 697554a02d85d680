/** Empty output and whitespace floods (a model that emits only spaces or newlines). */
import { finding, type Finding } from '../finding.js';
import type { JudgeContext, TextView } from './detector.js';
import { PlainStateDetector, type EngineDetector } from './engineDetector.js';

export interface WhitespaceFigures {
  chars: number;
  /** Whitespace chars in the text. */
  spaceChars: number;
  /** Longest run of whitespace chars and where it starts (-1 when none). */
  longestRun: number;
  longestRunStart: number;
}

interface WsState {
  spaceChars: number;
  max: number;
  maxStart: number;
}

export class WhitespaceDetector extends PlainStateDetector<WsState> implements EngineDetector<WhitespaceFigures> {
  readonly name = 'whitespace';
  readonly mayBeCertain = true;

  constructor() {
    super({ spaceChars: 0, max: 0, maxStart: -1 });
  }

  whitespace(start: number, length: number): void {
    const s = this.s;
    s.spaceChars += length;
    if (length > s.max) {
      s.max = length;
      s.maxStart = start;
    }
  }

  figures(view: TextView): WhitespaceFigures {
    return { chars: view.length, spaceChars: this.s.spaceChars, longestRun: this.s.max, longestRunStart: this.s.maxStart };
  }

  judge(f: WhitespaceFigures, ctx: JudgeContext): Finding[] {
    const t = ctx.thresholds;
    if (f.chars === 0) return [finding('empty', 'fail', 0, 'no output')];
    if (f.spaceChars === f.chars) {
      return [finding('empty', 'fail', 0, `${f.chars} whitespace chars and nothing else`, f.longestRun >= t.whitespaceRunFail)];
    }
    const detail = `${f.longestRun} whitespace chars in a row at char ${f.longestRunStart}`;
    if (f.longestRun >= t.whitespaceRunFail) {
      // A run the text moves on from (a table cell padded to its column, aligned comments) is
      // layout; a flooding model does not come back: the real floods run 2.5-57 K chars, to
      // the end or close to it. Four times the fail size fails wherever it is.
      const after = f.chars - (f.longestRunStart + f.longestRun);
      if (after >= t.whitespaceRunFail && f.longestRun < 4 * t.whitespaceRunFail)
        return [finding('whitespace_flood', 'warn', f.longestRunStart, `${detail}, and the text moves on after it`)];
      const certain = after === 0 && f.longestRun >= 4 * t.whitespaceRunFail;
      return [finding('whitespace_flood', 'fail', f.longestRunStart, detail, certain)];
    }
    if (f.longestRun >= t.whitespaceRunWarn)
      return [finding('whitespace_flood', 'warn', f.longestRunStart, `${detail}, below the ${t.whitespaceRunFail} that fail`)];
    return [];
  }
}
