/** Runs of one word repeated back to back ("the the the"), within a line. */
import { finding, type Finding } from '../finding.js';
import type { JudgeContext, TextView } from './detector.js';
import { PlainStateDetector, TF_AFTER_NL, TF_WORDISH, type EngineDetector } from './engineDetector.js';
import { excerptOf } from './loops.js';

export interface WordRunFigures {
  /** Longest run of one word back to back ("the the the" = 3). */
  longest: number;
  /** That word, lower-cased ('' when none). */
  word: string;
  /** Char offset where that run starts (-1 when none). */
  start: number;
}

interface RunState {
  prevId: number;
  prevIsWord: boolean;
  run: number;
  runStart: number;
  max: number;
  maxStart: number;
  maxWordStart: number;
  maxWordEnd: number;
}

export class WordRunDetector extends PlainStateDetector<RunState> implements EngineDetector<WordRunFigures> {
  readonly name = 'word_runs';

  constructor() {
    super({ prevId: -1, prevIsWord: false, run: 0, runStart: -1, max: 0, maxStart: -1, maxWordStart: 0, maxWordEnd: 0 });
  }

  token(_n: number, id: number, _kind: number, start: number, end: number, flags: number): void {
    const s = this.s;
    const isWord = (flags & TF_WORDISH) !== 0;
    if (isWord) {
      // a word ending one line and starting the next is not a stutter
      if (s.prevIsWord && s.prevId === id && !(flags & TF_AFTER_NL)) s.run++;
      else {
        s.run = 1;
        s.runStart = start;
      }
      if (s.run > s.max) {
        s.max = s.run;
        s.maxStart = s.runStart;
        s.maxWordStart = start;
        s.maxWordEnd = end;
      }
    } else s.run = 0;
    s.prevId = id;
    s.prevIsWord = isWord;
  }

  figures(view: TextView): WordRunFigures {
    const s = this.s;
    return { longest: s.max, word: s.max > 0 ? view.slice(s.maxWordStart, s.maxWordEnd).toLowerCase() : '', start: s.maxStart };
  }

  judge(f: WordRunFigures, ctx: JudgeContext): Finding[] {
    const t = ctx.thresholds;
    const detail = `"${excerptOf(f.word, 40)}" ${f.longest} times in a row at char ${f.start}`;
    if (f.longest >= t.wordRunFail) return [finding('word_loop', 'fail', f.start, detail)];
    if (f.longest >= t.wordRunWarn) return [finding('stutter', 'warn', f.start, `${detail}, below the ${t.wordRunFail} that fail`)];
    return [];
  }
}
