/**
 * Word salad, glued words, gibberish, script switches and stutter, judged on sliding
 * windows of three 256-byte blocks (768 UTF-8 bytes, so a window holds about as much
 * Chinese text as English text). The tokenizer fills the block statistics; this
 * detector sums each window, flags it, and keeps runs of flagged windows per flag.
 */
import { addBlock, type Block, newBlock } from '../blockStats.js';
import { SC_LATIN, SC_NONE, SCRIPT_COUNT, SCRIPT_NAMES } from '../charClass.js';
import { finding, type Finding, type FindingKind } from '../finding.js';
import type { Thresholds } from '../thresholds.js';
import type { JudgeContext } from './detector.js';
import type { EngineDetector } from './engineDetector.js';

/** Bytes per block; a window is WINDOW_BLOCKS blocks. */
export const BLOCK = 256;
const WINDOW_BLOCKS = 3;
/** Letters after which the opening script is taken without a sentence of prose (about 4 windows of English). */
const HEAD_WITHOUT_SENTENCE = 800;

/** Window flags. */
export const F_SALAD = 0;
export const F_GLUED = 1;
export const F_GIBBERISH = 2;
export const F_SCRIPT = 3;
export const F_STUTTER = 4;
export const FLAG_COUNT = 5;
/** Per flag: [current run, its start, max run, its start, flagged windows]. */
const RUN_FIELDS = 5;

export interface WindowFigures {
  /** Windows judged. */
  windows: number;
  /** The script the text opened in (SC_* index; SC_NONE until 200 letters were seen). */
  headScript: number;
  /** Per flag (F_*): run of flagged windows still going at the end, longest run, its start char, flagged windows. */
  curRun: number[];
  maxRun: number[];
  maxRunStart: number[];
  flagged: number[];
}

interface WinState {
  prev1: Block | null;
  prev2: Block | null;
  headScript: number;
  totalLetters: number;
  windows: number;
  runs: Float64Array;
}

export class WindowDetector implements EngineDetector<WindowFigures> {
  readonly name = 'windows';
  readonly mayBeCertain = true;
  private s: WinState = {
    prev1: null,
    prev2: null,
    headScript: SC_NONE,
    totalLetters: 0,
    windows: 0,
    runs: new Float64Array(FLAG_COUNT * RUN_FIELDS),
  };
  private saved: WinState | null = null;

  constructor(private readonly t: Thresholds) {}

  /** A block ended at char `start` + b.chars; `final` is the last partial block of a snapshot. */
  block(b: Block, start: number, final: boolean): void {
    const s = this.s;
    this.evaluate(b, start);
    if (!final) {
      s.prev2 = s.prev1;
      s.prev1 = b;
    }
  }

  save(): void {
    this.saved = { ...this.s, runs: this.s.runs.slice() };
  }

  restore(): void {
    if (this.saved) this.s = this.saved;
    this.saved = null;
  }

  figures(): WindowFigures {
    const s = this.s;
    const r = s.runs;
    const pick = (field: number): number[] => Array.from({ length: FLAG_COUNT }, (_, f) => r[f * RUN_FIELDS + field]!);
    return { windows: s.windows, headScript: s.headScript, curRun: pick(0), maxRun: pick(2), maxRunStart: pick(3), flagged: pick(4) };
  }

  judge(f: WindowFigures, ctx: JudgeContext): Finding[] {
    const t = ctx.thresholds;
    const kinds: Array<[number, FindingKind, string]> = [
      [F_SALAD, 'word_salad', 'no sentence structure and almost no function words'],
      [F_GLUED, 'word_salad', 'words glued together without spaces'],
      [F_GIBBERISH, 'gibberish', 'letters that form no words, odd chars or mixed scripts'],
      [F_SCRIPT, 'script_switch', `text leaves its opening script (${SCRIPT_NAMES[f.headScript] ?? 'none'})`],
      [F_STUTTER, 'stutter', 'words doubled over and over'],
    ];
    const out: Finding[] = [];
    for (const [flag, kind, what] of kinds) {
      const run = f.maxRun[flag]!;
      const at = f.maxRunStart[flag]!;
      const stillGoing = f.curRun[flag]! >= t.windowRunFail;
      if (run >= t.windowRunFail && !stillGoing && run < 3 * t.windowRunFail) {
        out.push(finding(kind, 'warn', at, `${what}, ${run} windows in a row from char ${at}, and the text moves on after it`));
      } else if (run >= t.windowRunFail) {
        // still going on at the end after ~2 KB: the stream will not come back to prose
        out.push(finding(kind, 'fail', at, `${what}, ${run} windows in a row from char ${at}`, f.curRun[flag]! >= 3 * t.windowRunFail));
      }
      // A single flagged window (768 bytes) is no finding: API indexes, minified names and
      // tables flag one now and then, a collapse keeps going.
    }
    // salad by function words and by glued words are one kind: one finding, the worst of them
    const salad = out.filter((f) => f.kind === 'word_salad');
    if (salad.length === 2) {
      const [a, b] = salad as [Finding, Finding];
      const keep = b.severity === 'fail' && a.severity === 'warn' ? b : a;
      const merged = { ...keep, certain: keep.severity === 'fail' && (a.certain || b.certain) };
      return out.filter((f) => f !== b).map((f) => (f === a ? merged : f));
    }
    return out;
  }

  /** Flags the window made of the last WINDOW_BLOCKS blocks ending with `b`. */
  private evaluate(b: Block, bStart: number): void {
    const s = this.s;
    s.totalLetters += b.letters - b.codeLatin;
    const w = newBlock();
    addBlock(w, b);
    let start = bStart;
    let blocks = 1;
    for (const p of [s.prev1, s.prev2]) {
      if (p === null) break;
      addBlock(w, p);
      start -= p.chars;
      blocks++;
    }
    if (s.headScript === SC_NONE && s.totalLetters >= 200 && (w.proseEnds > 0 || s.totalLetters >= HEAD_WITHOUT_SENTENCE)) {
      // The opening script: the dominant one in the first window of 200+ letters that holds a
      // sentence of prose. Badges, link lists and headings before a translated README's first
      // sentence are Latin whatever the language of the text; a text without sentences (a
      // list, a poem) is judged on its window once it has HEAD_WITHOUT_SENTENCE letters.
      let best = SC_NONE;
      for (let i = 1; i < SCRIPT_COUNT; i++) if (proseLetters(w, i) > (best === SC_NONE ? 0 : proseLetters(w, best))) best = i;
      s.headScript = best;
    }
    // too short to judge; only a final partial window of a short text lands here
    if (blocks < WINDOW_BLOCKS && w.chars < BLOCK * WINDOW_BLOCKS && w.chars < 600) return;
    s.windows++;
    const flags = windowFlags(w, this.t, s.headScript);
    const runs = s.runs;
    for (let f = 0; f < FLAG_COUNT; f++) {
      const o = f * RUN_FIELDS;
      if (flags & (1 << f)) {
        if (runs[o] === 0) runs[o + 1] = start;
        runs[o]!++;
        runs[o + 4]!++;
        if (runs[o]! > runs[o + 2]!) {
          runs[o + 2] = runs[o]!;
          runs[o + 3] = runs[o + 1]!;
        }
      } else runs[o] = 0;
    }
  }
}

/** Decide which window flags hold for the summed window `w`. */
export function windowFlags(w: Block, t: Thresholds, head: number): number {
  let flags = 0;
  const words = w.words;
  // Word salad: Latin/Cyrillic-style words with no function words and no sentence or line structure.
  if (w.latinWords >= 60 || (words >= 60 && w.scripts[SC_LATIN]! < w.letters / 2)) {
    const fwShare = w.fw / Math.max(1, words);
    const wordsPerBreak = words / Math.max(1, w.sentEnd + w.newlines);
    const letterShare = w.letters / Math.max(1, w.chars - w.spaces);
    if (fwShare < t.saladFunctionWordMax && wordsPerBreak >= t.saladWordsPerSentenceMin && letterShare >= 0.8) flags |= 1 << F_SALAD;
  }
  if (w.pureLatinLetters >= 200 && w.gluedLetters / w.pureLatinLetters >= t.gluedLetterShare) flags |= 1 << F_GLUED;
  // Gibberish: letters that do not form words of any language, odd chars, mojibake, many scripts mixed.
  if (w.pureLatinLetters >= 300 && w.latinWords >= 40) {
    const v = w.vowels / w.pureLatinLetters;
    const fwShare = w.fw / Math.max(1, words);
    if ((v < t.gibberishVowelMin || v > t.gibberishVowelMax) && fwShare < 0.1) flags |= 1 << F_GIBBERISH;
  }
  if (w.chars >= 200 && (w.odd / w.chars >= t.oddCharShare || w.mojibake >= 12)) flags |= 1 << F_GIBBERISH;
  // Char soup ("8eNwV5L0^ Q>Fx"): tokens mixing digits and letters or flipping case, few
  // vowels, upper and lower case mixed at random inside words. Code types like uint64_t are
  // lower case; constants like HTTP2_HEADER_STATUS are upper case, each word in one case,
  // so an all-caps word adds no mixed-case letters.
  if (
    words >= 40 &&
    w.allLatin >= 200 &&
    w.garbled / words >= t.garbledTokenShare &&
    w.allVowels / w.allLatin < 0.3 &&
    w.mixedUpper >= 0.2 * w.allLatin &&
    w.mixedUpper <= 0.8 * w.allLatin
  )
    flags |= 1 << F_GIBBERISH;
  if (w.letters >= 200) {
    let mixed = 0;
    for (let i = 1; i < SCRIPT_COUNT; i++) if (w.scripts[i]! >= w.letters * 0.12) mixed++;
    if (mixed >= 3) flags |= 1 << F_GIBBERISH;
  }
  // 100 letters: a 768-byte window of Devanagari or Han holds 150-250. Only the writer's
  // letters count: a Chinese answer's code block or a Russian README's links are Latin.
  const prose = w.letters - w.codeLatin;
  if (prose >= 100 && head !== SC_NONE && (prose - proseLetters(w, head)) / prose >= t.scriptSwitchShare) flags |= 1 << F_SCRIPT;
  if (w.stutter >= 6 && w.stutter >= t.stutterShare * w.chunks) flags |= 1 << F_STUTTER;
  return flags;
}

/** Letters of script `i` in `w` outside code, tags and URLs (whose Latin letters are the markup's). */
function proseLetters(w: Block, i: number): number {
  return i === SC_LATIN ? w.scripts[i]! - w.codeLatin : w.scripts[i]!;
}
