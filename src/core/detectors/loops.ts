/**
 * Back-to-back loops found from the token stream: word, phrase, sentence, line and
 * paragraph loops, near-loops (a word swapped per copy), tag spam and punctuation
 * floods. A table of 4-token k-grams gives, per token, the distance to the previous
 * occurrence of the same k-gram, which proposes a period; two trackers then verify
 * periods token by token (see step()). Cost per token is O(1).
 */
import { finding, type Finding } from '../finding.js';
import type { Thresholds } from '../thresholds.js';
import type { JudgeContext, TextView } from './detector.js';
import { TF_CONTENT, TF_NEW, TF_NUMERIC, TF_WORDISH, type EngineDetector } from './engineDetector.js';

/** k-gram length (tokens) used to propose loop periods. */
const K = 4;
/** Longest loop period searched, in tokens (about 8 KB of prose, 3 KB of code). */
export const MAX_PERIOD = 2048;
const RING = 4096;
const RING_MASK = RING - 1;
const TABLE_BITS = 14;
const TABLE_MASK = (1 << TABLE_BITS) - 1;

/** A back-to-back repeat found by the loop tracker. */
export interface Region {
  periodTokens: number;
  /** Char offsets of the first copy of the unit. */
  unitStart: number;
  unitEnd: number;
  /** Char offset where the repeats end. */
  end: number;
  coveredChars: number;
  copies: number;
  /** Share of tokens equal to the token one period earlier. */
  similarity: number;
  /** The same over content words only (not punctuation or tag names); = similarity when none. */
  contentSimilarity: number;
  /**
   * Words (not numbers; tag words too) met for the first time in the text inside copies 2 and on:
   * what the copies bring that is new. A loop brings nothing new; a list of distinct things in
   * one template (an import per module, a test per error code) brings a name per copy.
   */
  novelWords: number;
}

/** Loop severity levels. */
export const LEVEL_NONE = 0;
export const LEVEL_WARN = 1;
export const LEVEL_FAIL = 2;

export function regionLevel(r: Region, t: Thresholds): number {
  if (r.copies < t.loopMinCopies) return LEVEL_NONE;
  const sim = Math.min(r.similarity, r.contentSimilarity);
  if (sim >= t.loopMinSimilarity) {
    if (r.coveredChars >= t.loopFailChars) return LEVEL_FAIL;
    if (r.coveredChars >= t.loopWarnChars) return LEVEL_WARN;
    return LEVEL_NONE;
  }
  if (sim >= t.nearLoopMinSimilarity && r.copies >= t.nearLoopMinCopies) {
    if (r.coveredChars >= t.nearLoopFailChars) return LEVEL_FAIL;
    if (r.coveredChars >= t.loopFailChars) return LEVEL_WARN;
  }
  return LEVEL_NONE;
}

export type LoopKind =
  | 'word_loop'
  | 'phrase_loop'
  | 'line_loop'
  | 'sentence_loop'
  | 'paragraph_loop'
  | 'near_loop'
  | 'tag_spam'
  | 'punctuation_flood';

/** Markup tags and special tokens only: "</div>", "<br/>", "<|im_end|>", "</s>". */
const TAGS_ONLY = /^(?:\s*(?:<\/?[A-Za-z!?][^<>]{0,200}>|<\|[^<>|]{1,40}\|>))+\s*$/;
const LETTERS = /\p{L}/gu;
const DIGITS = /\p{N}/gu;
/** Sentence ends: Latin ones before a space or the end, CJK ones anywhere. */
const SENTENCE_END = /[.!?…](?=\s|$)|[。！？]/gu;

/** Name the kind of a repeated unit. `similarity` < loopMinSimilarity makes it a near-loop; `periodTokens` 1 a word loop. */
export function unitKind(unit: string, similarity: number, periodTokens: number, t: Pick<Thresholds, 'loopMinSimilarity'>): LoopKind {
  if (unit.trim().length <= 48 && TAGS_ONLY.test(unit)) return 'tag_spam';
  const letters = (unit.match(LETTERS) ?? []).length;
  const digits = (unit.match(DIGITS) ?? []).length;
  if (letters === 0 && unit.replace(/\s/g, '').length > 2 * digits) return 'punctuation_flood';
  if (similarity < t.loopMinSimilarity) return 'near_loop';
  if (periodTokens === 1) return 'word_loop';
  const trimmed = unit.trim();
  const sentences = (trimmed.match(SENTENCE_END) ?? []).length;
  if (trimmed.includes('\n') || sentences >= 3) return 'paragraph_loop';
  if (unit.includes('\n')) return 'line_loop';
  if (sentences >= 1) return 'sentence_loop';
  return 'phrase_loop';
}

/**
 * A loop's unit as found starts wherever the repeats began to match, often mid-sentence
 * (". The leader…"). Rotate it to start after a line break or sentence end inside the
 * unit, which is where a reader would say the loop begins.
 */
export function canonicalUnit(r: Region, slice: (a: number, b: number) => string): { onset: number; unit: string } {
  const len = r.unitEnd - r.unitStart;
  const ext = slice(r.unitStart, Math.min(r.unitStart + 2 * len + 16, r.end));
  const unit0 = ext.slice(0, len);
  let x = -1;
  const nl = unit0.indexOf('\n');
  if (nl >= 0 && nl + 1 < len) {
    x = nl + 1;
    while (x < len && /\s/.test(unit0[x]!)) x++;
  } else {
    const m = /[.!?…]\s+|[。！？]\s*/u.exec(unit0);
    if (m) x = m.index + m[0].length;
  }
  if (x > 0 && x < len && x + len <= ext.length) {
    // the copies may differ in whitespace: end the unit where its start shows up again
    const probe = ext.slice(x, x + Math.max(1, Math.min(24, len - 2)));
    const y = ext.indexOf(probe, x + Math.max(1, len - 8));
    const end = y > x && Math.abs(y - x - len) <= 8 ? y : x + len;
    return { onset: r.unitStart + x, unit: ext.slice(x, end) };
  }
  return { onset: r.unitStart, unit: unit0 };
}

export interface LoopFigures {
  chars: number;
  /** The loop to report: the worst one that counts, else the longest repeat seen (null when none). */
  region: Region | null;
  /** LEVEL_* of the worst loop that counts (LEVEL_NONE when none counts). */
  worstLevel: number;
  /** True when `region` is the worst loop that counts (not only the longest repeat). */
  regionCounts: boolean;
  /** Chars inside loops that each count. */
  coveredChars: number;
  /** The reported unit, rotated to where a reader would say it starts, and that start. */
  unit: string;
  onset: number;
  kind: LoopKind | '';
}

/** One followed loop candidate: period p (tokens), X-drop score, counts at the best point. */
interface Tracker {
  p: number;
  p0: number;
  a: number;
  score: number;
  best: number;
  bestEnd: number;
  bestEndChar: number;
  m: number;
  x: number;
  cm: number;
  ct: number;
  bm: number;
  bx: number;
  bcm: number;
  bct: number;
  /** Novel words (Region.novelWords) so far, and at the best point. */
  nv: number;
  bnv: number;
  unitStart: number;
  unitEnd: number;
  lastMatch: boolean;
}

function newTracker(): Tracker {
  return {
    p: 0,
    p0: 0,
    a: 0,
    score: 0,
    best: 0,
    bestEnd: 0,
    bestEndChar: 0,
    m: 0,
    x: 0,
    cm: 0,
    ct: 0,
    bm: 0,
    bx: 0,
    bcm: 0,
    bct: 0,
    nv: 0,
    bnv: 0,
    unitStart: 0,
    unitEnd: 0,
    lastMatch: false,
  };
}

interface LoopState {
  t0: Tracker;
  t1: Tracker;
  longest: Region | null;
  worst: Region | null;
  lastRegion: Region | null;
  lastLevel: number;
  worstLevel: number;
  coveredChars: number;
}

/** True when p is close to a multiple (2+) of q: q is then the loop's real period. */
function isMultiple(p: number, q: number): boolean {
  const m = Math.round(p / q);
  return m >= 2 && Math.abs(p - m * q) <= Math.max(2, q >> 3);
}

export class LoopDetector implements EngineDetector<LoopFigures> {
  readonly name = 'loops';
  readonly mayBeCertain = true;
  private s: LoopState = {
    t0: newTracker(),
    t1: newTracker(),
    longest: null,
    worst: null,
    lastRegion: null,
    lastLevel: 0,
    worstLevel: 0,
    coveredChars: 0,
  };
  private saved: LoopState | null = null;
  private readonly ids = new Int32Array(RING);
  private readonly tStart = new Int32Array(RING);
  private readonly tContent = new Uint8Array(RING);
  private readonly kHash = new Int32Array(1 << TABLE_BITS);
  private readonly kPos = new Int32Array(1 << TABLE_BITS).fill(-1);

  constructor(private readonly t: Thresholds) {}

  token(n: number, id: number, _kind: number, start: number, end: number, flags: number): void {
    const slot = n & RING_MASK;
    this.ids[slot] = id;
    this.tStart[slot] = start;
    const content = flags & TF_CONTENT ? 1 : 0;
    this.tContent[slot] = content;
    const novel = (flags & (TF_WORDISH | TF_NEW | TF_NUMERIC)) === (TF_WORDISH | TF_NEW);
    let kprev = -1;
    if (n >= K - 1) {
      let h = 0x9e3779b1 | 0;
      for (let j = n - K + 1; j <= n; j++) h = (Math.imul(h ^ this.ids[j & RING_MASK]!, 0x01000193) + 0x7f4a7c15) | 0;
      const ts = (h ^ (h >>> TABLE_BITS)) & TABLE_MASK;
      const p = this.kPos[ts]!;
      if (p >= 0 && this.kHash[ts] === h && n - p <= MAX_PERIOD) kprev = p;
      if (this.saved === null) {
        this.kHash[ts] = h;
        this.kPos[ts] = n;
      }
    }
    this.step(n, id, content, novel, end, kprev);
  }

  save(): void {
    const s = this.s;
    this.saved = { ...s, t0: { ...s.t0 }, t1: { ...s.t1 } };
  }

  flush(): void {
    this.close(this.s.t0);
    this.close(this.s.t1);
  }

  restore(): void {
    if (this.saved) this.s = this.saved;
    this.saved = null;
  }

  figures(view: TextView): LoopFigures {
    const s = this.s;
    const region = s.worst ?? s.longest;
    const canon = region ? canonicalUnit(region, (a, b) => view.slice(a, b)) : { onset: -1, unit: '' };
    const sim = region ? Math.min(region.similarity, region.contentSimilarity) : 1;
    return {
      chars: view.length,
      region,
      worstLevel: s.worstLevel,
      regionCounts: s.worst !== null,
      coveredChars: s.coveredChars,
      unit: canon.unit,
      onset: canon.onset,
      kind: region ? unitKind(canon.unit, sim, region.periodTokens, this.t) : '',
    };
  }

  judge(f: LoopFigures, ctx: JudgeContext): Finding[] {
    return judgeLoops(f, ctx.thresholds, ctx.finishReason);
  }

  /**
   * One step per token. A candidate period comes from the k-gram table. A tracker
   * follows one period: each token is compared with the token one period earlier; a
   * small shift (an inserted or dropped word) re-syncs the period, and an X-drop score
   * ends the tracker when matches stop. Two trackers run at once, so a loop is still
   * followed while a stray match (a repeated phrase inside the unit, an older natural
   * occurrence of the unit) is tried and dropped.
   */
  private step(n: number, id: number, content: number, novel: boolean, end: number, kprev: number): void {
    const s = this.s;
    const d = kprev >= 0 ? n - kprev : 0;
    let explained = d === 0;
    for (let i = 0; i < 2; i++) {
      const t = i === 0 ? s.t0 : s.t1;
      if (t.p === 0) continue;
      const tol = Math.max(2, t.p0 >> 3);
      let match = this.ids[(n - t.p) & RING_MASK] === id;
      if (d > 0) {
        if (d === t.p) explained = true;
        else if (Math.abs(d - t.p0) <= tol) {
          explained = true;
          if (!match) {
            t.p = d;
            match = true;
          }
        } else if (match && isMultiple(d, t.p0)) explained = true;
      }
      t.lastMatch = match;
      if (match) {
        t.score += 1;
        t.m++;
        if (content) t.cm++;
      } else {
        t.score -= 2;
        t.x++;
      }
      if (content) t.ct++;
      if (novel) t.nv++;
      if (t.score >= t.best) {
        t.best = t.score;
        t.bestEnd = n;
        t.bestEndChar = end;
        t.bm = t.m;
        t.bx = t.x;
        t.bcm = t.cm;
        t.bct = t.ct;
        t.bnv = t.nv;
      } else if (t.score < t.best - (12 + (t.p0 >> 3))) {
        this.close(t);
      }
    }
    if (explained) return;
    // a new candidate period: take a free tracker, else the one that is failing
    let slot: Tracker | null = null;
    const t0 = s.t0;
    const t1 = s.t1;
    if (t0.p === 0) slot = t0;
    else if (t1.p === 0) slot = t1;
    else if (!t0.lastMatch && (t1.lastMatch || t0.best <= t1.best)) slot = t0;
    else if (!t1.lastMatch) slot = t1;
    if (slot === null) return;
    this.close(slot);
    this.open(slot, n, d, end);
  }

  /** Start following period d from the k-gram that ends at token n (extended back while tokens still match). */
  private open(t: Tracker, n: number, d: number, end: number): void {
    let a = n - K + 1;
    for (let steps = 0; steps < K && a - 1 - d >= 0 && a - 1 - d > n - RING; steps++) {
      if (this.ids[(a - 1) & RING_MASK] !== this.ids[(a - 1 - d) & RING_MASK]) break;
      a--;
    }
    if (a - d < 0 || a - d <= n - RING) return;
    let contentCount = 0;
    for (let j = a; j <= n; j++) contentCount += this.tContent[j & RING_MASK]!;
    t.p = d;
    t.p0 = d;
    t.a = a;
    t.score = n - a + 1;
    t.best = t.score;
    t.bestEnd = n;
    t.bestEndChar = end;
    t.m = t.score;
    t.x = 0;
    t.cm = contentCount;
    t.ct = contentCount;
    t.bm = t.m;
    t.bx = 0;
    t.bcm = contentCount;
    t.bct = contentCount;
    t.nv = 0;
    t.bnv = 0;
    t.unitStart = this.tStart[(a - d) & RING_MASK]!;
    t.unitEnd = this.tStart[a & RING_MASK]!;
    t.lastMatch = true;
  }

  /** Stop a tracker and record what it found, if it repeated at least twice. */
  private close(t: Tracker): void {
    if (t.p === 0) return;
    t.p = 0;
    const s = this.s;
    const coveredTokens = t.bestEnd - (t.a - t.p0) + 1;
    const copies = coveredTokens / t.p0;
    if (copies < 2) return;
    const similarity = t.bm / (t.bm + t.bx);
    let r: Region = {
      periodTokens: t.p0,
      unitStart: t.unitStart,
      unitEnd: t.unitEnd,
      end: t.bestEndChar,
      coveredChars: t.bestEndChar - t.unitStart,
      copies,
      similarity,
      contentSimilarity: t.bct > 0 ? t.bcm / t.bct : similarity,
      novelWords: t.bnv,
    };
    // A near-loop whose copies drift (words inserted and dropped) breaks into pieces
    // with the same period, each starting where the previous one ended: chain them.
    const last = s.lastRegion;
    if (
      last !== null &&
      r.end > last.end &&
      Math.abs(r.periodTokens - last.periodTokens) <= Math.max(2, last.periodTokens >> 3) &&
      r.unitStart <= last.end + (last.unitEnd - last.unitStart) &&
      r.unitStart >= last.unitStart
    ) {
      const unitChars = Math.max(1, last.unitEnd - last.unitStart);
      const covered = r.end - last.unitStart;
      const w = last.coveredChars + r.coveredChars;
      r = {
        periodTokens: last.periodTokens,
        unitStart: last.unitStart,
        unitEnd: last.unitEnd,
        end: r.end,
        coveredChars: covered,
        copies: Math.max(last.copies + r.copies - 1, covered / unitChars),
        similarity: (last.similarity * last.coveredChars + r.similarity * r.coveredChars) / w,
        contentSimilarity: (last.contentSimilarity * last.coveredChars + r.contentSimilarity * r.coveredChars) / w,
        novelWords: last.novelWords + r.novelWords,
      };
      if (s.lastLevel > LEVEL_NONE) s.coveredChars -= last.coveredChars;
    }
    s.lastRegion = r;
    if (s.longest === null || r.coveredChars > s.longest.coveredChars) s.longest = r;
    const level = regionLevel(r, this.t);
    s.lastLevel = level;
    if (level > LEVEL_NONE) {
      s.coveredChars += r.coveredChars;
      if (level > s.worstLevel || (level === s.worstLevel && s.worst !== null && r.coveredChars > s.worst.coveredChars)) {
        s.worst = r;
        s.worstLevel = level;
      }
    }
  }
}

export function excerptOf(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : flat.slice(0, max - 1) + '…';
}

export function fmt(x: number, digits = 2): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}

/** Is the loop still going at the end of the text? */
export function loopAtEnd(r: Region, chars: number): boolean {
  return chars - r.end <= Math.max(64, (r.unitEnd - r.unitStart) * 2);
}

/**
 * A collapsed model stays in its loop until the token limit; text that repeats a block
 * and then moves on is structured (test cases, overloads, tables), not collapsed, unless
 * the loop ran away. A near-loop left behind gives no finding at all.
 */
export function judgeLoops(f: LoopFigures, t: Thresholds, finishReason: string | null = null): Finding[] {
  const out: Finding[] = [];
  const r = f.region;
  const atEnd = r !== null && f.regionCounts && loopAtEnd(r, f.chars);
  if (r && f.regionCounts && f.kind !== '') {
    const sim = Math.min(r.similarity, r.contentSimilarity);
    const detail = `"${excerptOf(f.unit, 60)}" repeated ${fmt(r.copies, 1)} times back to back from char ${f.onset} (${r.coveredChars} chars, ${Math.round((100 * r.coveredChars) / Math.max(1, f.chars))}% of the text, similarity ${fmt(sim)})`;
    const runaway = sim >= t.recoveredLoopMinSimilarity && r.coveredChars >= t.recoveredLoopFailChars;
    // The model ended the text itself (finish_reason stop), so it was not stuck: blocks that
    // vary a little (test cases, overloads, one declaration per type) end files and answers
    // that way. A collapse repeats verbatim, or keeps going until the token limit.
    // However many copies, a template whose copies each name something new is a list.
    const novelty = r.novelWords / Math.max(1, r.copies - 1);
    const names = novelty >= t.stoppedLoopMinNovelty;
    const stoppedVarying =
      finishReason === 'stop' && !runaway && sim < t.stoppedLoopMinSimilarity && (r.copies < t.stoppedLoopMinCopies || names);
    // Without the evidence of a cut (finish_reason length), copies that each bring several words
    // never seen before are blocks of a program or a document (a test per case, a section per
    // type), not a model repeating itself.
    const newBlocks = finishReason !== 'length' && !runaway && sim < t.stoppedLoopMinSimilarity && novelty >= t.loopBlocksMinNovelty;
    if (f.worstLevel === LEVEL_FAIL && atEnd && stoppedVarying) {
      const how = names ? `its copies vary and name something new (new words per copy: ${novelty.toFixed(2)}): a list` : 'its copies vary';
      out.push(
        finding(f.kind, 'warn', f.onset, `${detail}, at the end of an output the model ended itself (finish_reason stop), and ${how}`),
      );
    } else if (f.worstLevel === LEVEL_FAIL && atEnd && newBlocks) {
      out.push(
        finding(
          f.kind,
          'warn',
          f.onset,
          `${detail}, and each copy brings words the text had not used (${novelty.toFixed(2)} per copy): blocks, not a loop`,
        ),
      );
    } else if (f.worstLevel === LEVEL_FAIL && (atEnd || runaway)) {
      // A loop still running at the end with many verbatim copies will not recover.
      // Units of punctuation only (a table border, an ASCII chart's "| # " columns) repeat by
      // design for a while: they need four times the size before they are beyond doubt.
      const bare = f.kind === 'punctuation_flood' ? 4 : 1;
      const certain = atEnd && r.copies >= 8 && sim >= 0.99 && r.coveredChars >= 2 * bare * t.loopFailChars;
      out.push(finding(f.kind, 'fail', f.onset, atEnd ? `${detail}, running to the end` : `${detail}, a runaway loop`, certain));
    } else if (
      f.worstLevel === LEVEL_FAIL &&
      sim >= t.loopMinSimilarity &&
      r.copies >= t.recoveredLoopWarnCopies &&
      r.coveredChars >= t.recoveredLoopFailChars / 2
    ) {
      // Code, tests and docs repeat a block a few times and go on (1,500 real files: 3-15
      // copies); a long verbatim run left behind is still odd enough to say.
      out.push(finding(f.kind, 'warn', f.onset, `${detail}, and the text moves on after it`));
    } else if (f.worstLevel === LEVEL_WARN && atEnd) {
      out.push(finding(f.kind, 'warn', f.onset, `${detail}, below the ${t.loopFailChars} chars that fail`));
    }
  }
  const coverage = f.chars > 0 ? Math.min(1, f.coveredChars / f.chars) : 0;
  if (coverage >= t.repeatCoverageFail && f.worstLevel !== LEVEL_FAIL) {
    const text = `${Math.round(coverage * 100)}% of the text lies in back-to-back repeats`;
    if (atEnd) out.push(finding('loop_coverage', 'fail', f.onset, text));
    else out.push(finding('loop_coverage', 'warn', f.onset, `${text}, and the text moves on after them`));
  }
  return out;
}
