/**
 * Near-loops by vocabulary: distinct content words among the last 128. A loop or
 * near-loop keeps cycling through a handful of words (prose uses 60+ distinct words per
 * 128). Counts live in a table indexed by word id; speculative steps (a snapshot) are
 * undone from a log.
 */
import { finding, type Finding } from '../finding.js';
import type { Thresholds } from '../thresholds.js';
import type { JudgeContext } from './detector.js';
import { PlainStateDetector, TF_CONTENT, TF_NUMERIC, type EngineDetector } from './engineDetector.js';

/** Content words in the sliding vocabulary window. */
const DIV_WINDOW = 128;

export interface LowDiversityFigures {
  /** Longest run of content words whose last-128-word window had few distinct words (0 when none). */
  run: number;
  /** Char offset where that run's first window starts (-1 when none). */
  start: number;
  /** Distinct words in the window where the run was longest. */
  distinct: number;
  /** The same run, if it is still going on at the end of the text (0 otherwise). */
  currentRun: number;
}

interface DivState {
  n: number;
  distinct: number;
  numeric: number;
  run: number;
  runStart: number;
  maxRun: number;
  maxRunStart: number;
  maxDistinct: number;
}

export class LowDiversityDetector extends PlainStateDetector<DivState> implements EngineDetector<LowDiversityFigures> {
  readonly name = 'low_diversity';
  private counts = new Int32Array(1024);
  private readonly ring = new Int32Array(DIV_WINDOW);
  private readonly pos = new Int32Array(DIV_WINDOW);
  private readonly tok = new Int32Array(DIV_WINDOW);
  private readonly num = new Uint8Array(DIV_WINDOW);
  private readonly undo: number[] = [];

  constructor(private readonly t: Thresholds) {
    super({ n: 0, distinct: 0, numeric: 0, run: 0, runStart: -1, maxRun: 0, maxRunStart: -1, maxDistinct: 0 });
  }

  token(n: number, id: number, _kind: number, start: number, _end: number, flags: number): void {
    if (!(flags & TF_CONTENT)) return;
    const s = this.s;
    const numeric = flags & TF_NUMERIC ? 1 : 0;
    const i = s.n++;
    const slot = i % DIV_WINDOW;
    const removed = i >= DIV_WINDOW ? this.ring[slot]! : -1;
    if (this.speculative) this.undo.push(slot, this.ring[slot]!, this.pos[slot]!, removed, id, this.tok[slot]!, this.num[slot]!);
    if (removed >= 0) {
      if (--this.counts[removed]! === 0) s.distinct--;
      s.numeric -= this.num[slot]!;
    }
    this.pos[slot] = start;
    this.ring[slot] = id;
    // the token count after this token, as the engine counted before its split
    this.tok[slot] = n + 1;
    this.num[slot] = numeric;
    s.numeric += numeric;
    if (id >= this.counts.length) {
      const grown = new Int32Array(Math.max(id + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    if (this.counts[id]!++ === 0) s.distinct++;
    // Data (numbers) and code (as many symbols as words) cycle through fewer words by nature:
    // numbers are not counted, and code-like windows need half as many distinct words.
    const oldest = (i + 1) % DIV_WINDOW;
    const codeLike = n + 1 - this.tok[oldest]! > DIV_WINDOW * 1.6;
    if (
      i + 1 >= DIV_WINDOW &&
      s.distinct <= (codeLike ? this.t.lowDiversityMax >> 1 : this.t.lowDiversityMax) &&
      s.numeric * 10 <= DIV_WINDOW * 3
    ) {
      if (s.run === 0) s.runStart = this.pos[oldest]!;
      s.run++;
      if (s.run > s.maxRun) {
        s.maxRun = s.run;
        s.maxRunStart = s.runStart;
        s.maxDistinct = s.distinct;
      }
    } else s.run = 0;
  }

  override restore(): void {
    const u = this.undo;
    for (let i = u.length - 7; i >= 0; i -= 7) {
      const slot = u[i]!;
      const removed = u[i + 3]!;
      this.counts[u[i + 4]!]!--;
      if (removed >= 0) this.counts[removed]!++;
      this.ring[slot] = u[i + 1]!;
      this.pos[slot] = u[i + 2]!;
      this.tok[slot] = u[i + 5]!;
      this.num[slot] = u[i + 6]!;
    }
    u.length = 0;
    super.restore();
  }

  figures(): LowDiversityFigures {
    const s = this.s;
    return { run: s.maxRun, start: s.maxRunStart, distinct: s.maxDistinct, currentRun: s.run };
  }

  judge(f: LowDiversityFigures, ctx: JudgeContext): Finding[] {
    const t = ctx.thresholds;
    if (f.run < t.lowDiversityRunFail) return [];
    // As with loops: still cycling at the end, or for very long, is a collapse; a stretch of
    // boilerplate with a small vocabulary that the text moves on from is not.
    const atEnd = f.currentRun >= t.lowDiversityRunFail;
    if (!atEnd && f.run < 3 * t.lowDiversityRunFail) return [];
    const detail = `the text keeps cycling through ${f.distinct} distinct words for ${f.run + DIV_WINDOW} words from char ${f.start}`;
    // The model ended the text itself (finish_reason stop): a small vocabulary to the end (a
    // list of test cases) is worth a warn, a stretch it left behind (an API list) nothing.
    if (ctx.finishReason === 'stop') {
      return atEnd
        ? [finding('near_loop', 'warn', f.start, `${detail}, to the end of an output the model ended itself (finish_reason stop)`)]
        : [];
    }
    // never certain: code and test lists cycle through a small vocabulary for hundreds of words
    return [finding('near_loop', 'fail', f.start, detail)];
  }
}
