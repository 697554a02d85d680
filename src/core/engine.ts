/**
 * The analyzer's single pass. Every figure is updated per char or per token in O(1)
 * amortized time, so a whole text and the same text pushed in any deltas end in the
 * same state. A snapshot finishes the pending word, line, window and loop on a copy
 * of the small scalar state (maps and tables are only read), reports, and restores.
 */
import {
  CH_PUNCT, CH_SOLO, CH_SPACE, CH_WORD, SCRIPT_COUNT, SC_LATIN, SC_NONE,
  astralInfo, classOf, isLatinVowel, isOddCode, isSentenceEnd, scriptOfCode,
} from './charClass.js';
import { CompressionTracker, type CompressionFigures } from './compression.js';
import { FUNCTION_WORDS } from './functionWords.js';
import type { Thresholds } from './thresholds.js';
import { TextStore } from './textStore.js';

/** Token kinds. */
const T_WORD = 1;
const T_MARK = 2; // a word inside an HTML/XML tag: structure, not content
const T_SOLO = 3;
const T_PUNCT = 4;

/** k-gram length (tokens) used to propose loop periods. */
const K = 4;
/** Longest loop period searched, in tokens (about 8 KB of prose, 3 KB of code). */
export const MAX_PERIOD = 2048;
const RING = 4096;
const RING_MASK = RING - 1;
const TABLE_BITS = 16;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** Window blocks for salad, gibberish, stutter and script figures. */
export const BLOCK = 256;
const WINDOW_BLOCKS = 4;
/** Lines longer than this are not counted for the repeated-line figures. */
const MAX_LINE = 2000;
const MAX_KEY = 64;

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
}

/** Window flags. */
export const F_SALAD = 0;
export const F_GLUED = 1;
export const F_GIBBERISH = 2;
export const F_SCRIPT = 3;
export const F_STUTTER = 4;
export const FLAG_COUNT = 5;

interface Block {
  chars: number;
  spaces: number;
  words: number;
  latinWords: number;
  fw: number;
  sentEnd: number;
  newlines: number;
  letters: number;
  latinLetters: number;
  vowels: number;
  pureLatinLetters: number;
  gluedLetters: number;
  odd: number;
  mojibake: number;
  stutter: number;
  punct: number;
  scripts: Int32Array;
}

function newBlock(): Block {
  return {
    chars: 0, spaces: 0, words: 0, latinWords: 0, fw: 0, sentEnd: 0, newlines: 0, letters: 0,
    latinLetters: 0, vowels: 0, pureLatinLetters: 0, gluedLetters: 0, odd: 0, mojibake: 0,
    stutter: 0, punct: 0, scripts: new Int32Array(SCRIPT_COUNT),
  };
}

function copyBlock(b: Block): Block {
  return { ...b, scripts: b.scripts.slice() };
}

function addBlock(into: Block, b: Block): void {
  into.chars += b.chars; into.spaces += b.spaces; into.words += b.words; into.latinWords += b.latinWords;
  into.fw += b.fw; into.sentEnd += b.sentEnd; into.newlines += b.newlines; into.letters += b.letters;
  into.latinLetters += b.latinLetters; into.vowels += b.vowels; into.pureLatinLetters += b.pureLatinLetters;
  into.gluedLetters += b.gluedLetters; into.odd += b.odd; into.mojibake += b.mojibake;
  into.stutter += b.stutter; into.punct += b.punct;
  for (let i = 0; i < SCRIPT_COUNT; i++) into.scripts[i]! += b.scripts[i]!;
}

/** Everything that changes per char or token, as plain values so a snapshot can copy it. */
interface State {
  pos: number;
  extraBytes: number;
  pendingHigh: number;
  prevCode: number;
  punctChars: number;
  spaceChars: number;
  // whitespace runs
  wsRun: number;
  wsRunStart: number;
  maxWsRun: number;
  maxWsRunStart: number;
  // lines
  lineStart: number;
  nonBlankLines: number;
  lineChars: number;
  dupLineChars: number;
  topLineCount: number;
  topLine: string;
  // pending word
  wordStart: number;
  wordInTag: boolean;
  wordLatin: number;
  wordVowels: number;
  wordDigits: number;
  wordOther: number;
  wordUpper: boolean;
  wordNonAscii: boolean;
  tagState: number;
  // tokens
  nTok: number;
  nextId: number;
  words: number;
  distinctWords: number;
  prevId: number;
  prevIsWord: boolean;
  wordRun: number;
  maxWordRun: number;
  maxWordRunWord: string;
  maxWordRunStart: number;
  runStart: number;
  // loop tracker (current candidate)
  lp: number;
  lp0: number;
  la: number;
  lScore: number;
  lBest: number;
  lBestEnd: number;
  lBestEndChar: number;
  lM: number;
  lX: number;
  lCM: number;
  lCT: number;
  lBM: number;
  lBX: number;
  lBCM: number;
  lBCT: number;
  lUnitStart: number;
  lUnitEnd: number;
  // loop results
  longest: Region | null;
  worst: Region | null;
  worstLevel: number;
  coveredChars: number;
  // blocks & windows
  blockStart: number;
  prev1: Block | null;
  prev2: Block | null;
  prev3: Block | null;
  headScript: number;
  totalLetters: number;
  windowsEvaluated: number;
}

/** Per-flag runs of consecutive flagged windows: [cur, curStart, max, maxStart, count] each. */
const RUN_FIELDS = 5;

export interface RawFigures {
  chars: number;
  bytes: number;
  words: number;
  distinctWords: number;
  nonSpace: number;
  punctChars: number;
  spaceChars: number;
  maxWsRun: number;
  maxWsRunStart: number;
  nonBlankLines: number;
  lineChars: number;
  dupLineChars: number;
  topLineCount: number;
  topLine: string;
  maxWordRun: number;
  maxWordRunWord: string;
  maxWordRunStart: number;
  longest: Region | null;
  worst: Region | null;
  worstLevel: number;
  coveredChars: number;
  headScript: number;
  /** Per flag: max run of flagged windows, its start char, and total flagged windows. */
  flagMaxRun: number[];
  flagMaxRunStart: number[];
  flagWindows: number[];
  windows: number;
  compression: CompressionFigures;
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

export class Engine {
  readonly store = new TextStore();
  private readonly comp: CompressionTracker;
  private s: State;
  private cur: Block = newBlock();
  private runs = new Float64Array(FLAG_COUNT * RUN_FIELDS);
  private readonly intern = new Map<string, number>();
  private readonly asciiIds = new Int32Array(128).fill(-1);
  private readonly lines = new Map<string, number>();
  private readonly ids = new Int32Array(RING);
  private readonly tStart = new Int32Array(RING);
  private readonly tEnd = new Int32Array(RING);
  private readonly tContent = new Uint8Array(RING);
  private readonly kHash = new Int32Array(1 << TABLE_BITS);
  private readonly kPos = new Int32Array(1 << TABLE_BITS).fill(-1);
  private spec = false;
  /** Delta string being scanned and its char offset, to slice tokens without the store. */
  private dText = '';
  private dBase = 0;

  constructor(private readonly t: Thresholds) {
    this.comp = new CompressionTracker(this.store);
    this.s = {
      pos: 0, extraBytes: 0, pendingHigh: -1, prevCode: -1, punctChars: 0, spaceChars: 0,
      wsRun: 0, wsRunStart: -1, maxWsRun: 0, maxWsRunStart: -1,
      lineStart: 0, nonBlankLines: 0, lineChars: 0, dupLineChars: 0, topLineCount: 0, topLine: '',
      wordStart: -1, wordInTag: false, wordLatin: 0, wordVowels: 0, wordDigits: 0, wordOther: 0, wordUpper: false, wordNonAscii: false, tagState: 0,
      nTok: 0, nextId: 0, words: 0, distinctWords: 0, prevId: -1, prevIsWord: false,
      wordRun: 0, maxWordRun: 0, maxWordRunWord: '', maxWordRunStart: -1, runStart: -1,
      lp: 0, lp0: 0, la: 0, lScore: 0, lBest: 0, lBestEnd: 0, lBestEndChar: 0, lM: 0, lX: 0,
      lCM: 0, lCT: 0, lBM: 0, lBX: 0, lBCM: 0, lBCT: 0, lUnitStart: 0, lUnitEnd: 0,
      longest: null, worst: null, worstLevel: 0, coveredChars: 0,
      blockStart: 0, prev1: null, prev2: null, prev3: null, headScript: SC_NONE, totalLetters: 0,
      windowsEvaluated: 0,
    };
  }

  get length(): number {
    return this.store.size;
  }

  slice(from: number, to: number): string {
    return this.store.slice(from, to);
  }

  push(delta: string): void {
    if (delta.length === 0) return;
    this.store.append(delta);
    this.dText = delta;
    this.dBase = this.store.size - delta.length;
    let from = 0;
    const s = this.s;
    if (s.pendingHigh >= 0) {
      const lo = delta.charCodeAt(0);
      const hi = s.pendingHigh;
      s.pendingHigh = -1;
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        this.astral(((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000, s.pos);
        from = 1;
      } else {
        this.bmp(hi, s.pos);
      }
    }
    this.scan(delta, from);
    this.comp.advance(this.s.pos);
  }

  private scan(str: string, from: number): void {
    const n = str.length;
    const s = this.s;
    for (let i = from; i < n; i++) {
      const c = str.charCodeAt(i);
      if (c < 128) {
        const a = ASCII[c]!;
        // Fast path: an ASCII letter or digit inside a word (most chars of most texts).
        if (a >= A_LOWER && s.wordStart >= 0 && s.pos - s.blockStart < BLOCK) {
          s.pos++;
          if (a === A_DIGIT) s.wordDigits++;
          else {
            s.wordLatin++;
            s.wordVowels += VOWEL[c]!;
            if (a === A_UPPER) s.wordUpper = true;
          }
          s.prevCode = c;
          continue;
        }
        this.char(c, a === A_SPACE ? CH_SPACE : a === A_PUNCT ? CH_PUNCT : CH_WORD, a === A_LOWER || a === A_UPPER ? SC_LATIN : SC_NONE, s.pos, 1);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff) {
        if (i + 1 < n) {
          const lo = str.charCodeAt(i + 1);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            this.astral(((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000, s.pos);
            i++;
            continue;
          }
        } else if (!this.spec) {
          s.pendingHigh = c;
          return;
        }
      }
      this.bmp(c, s.pos);
    }
  }

  private bmp(c: number, off: number): void {
    if (c < 128) {
      const a = ASCII[c]!;
      this.char(c, a === A_SPACE ? CH_SPACE : a === A_PUNCT ? CH_PUNCT : CH_WORD, a === A_LOWER || a === A_UPPER ? SC_LATIN : SC_NONE, off, 1);
      return;
    }
    const cls = classOf(c);
    this.char(c, cls, cls === CH_WORD || cls === CH_SOLO ? scriptOfCode(c) : SC_NONE, off, 1);
  }

  private astral(cp: number, off: number): void {
    const info = astralInfo(cp);
    this.char(cp, info >> 4, info & 15, off, 2);
  }

  private char(c: number, cls: number, script: number, off: number, len: number): void {
    const s = this.s;
    if (s.wordStart >= 0 && cls !== CH_WORD) this.finishWord(off);
    if (off - s.blockStart >= BLOCK) this.finishBlock(off);
    const cur = this.cur;
    s.pos = off + len;
    if (c >= 0x80) s.extraBytes += len === 2 ? 2 : c < 0x800 ? 1 : 2;
    if (cls === CH_SPACE) {
      s.spaceChars++;
      cur.spaces++;
      if (s.wsRun === 0) s.wsRunStart = off;
      s.wsRun++;
      if (s.tagState === 1) s.tagState = 0;
      if (s.wsRun > s.maxWsRun) {
        s.maxWsRun = s.wsRun;
        s.maxWsRunStart = s.wsRunStart;
      }
      if (c === 10) {
        cur.newlines++;
        this.finishLine(off);
        s.tagState = 0;
        s.prevIsWord = false; // a word ending one line and starting the next is not a stutter
      }
      s.prevCode = c;
      return;
    }
    s.wsRun = 0;
    if (cls === CH_WORD) {
      if (s.tagState === 1) s.tagState = 2;
      if (s.wordStart < 0) {
        s.wordStart = off;
        s.wordInTag = s.tagState === 2;
        s.wordLatin = 0; s.wordVowels = 0; s.wordDigits = 0; s.wordOther = 0;
        s.wordUpper = false; s.wordNonAscii = false;
      }
      if (c >= 0x80) s.wordNonAscii = true;
      else if (c >= 0x41 && c <= 0x5a) s.wordUpper = true;
      if (script === SC_LATIN) {
        s.wordLatin++;
        if (isLatinVowel(c)) s.wordVowels++;
      } else if (script === SC_NONE) s.wordDigits++;
      else {
        s.wordOther++;
        cur.letters++;
        cur.scripts[script]!++;
      }
      if ((s.prevCode === 0xc3 || s.prevCode === 0xc2) && c >= 0x80 && c <= 0xbf) cur.mojibake++;
      s.prevCode = c;
      return;
    }
    if (cls === CH_SOLO) {
      cur.letters++;
      cur.scripts[script]!++;
      this.token(T_SOLO, len === 1 ? String.fromCharCode(c) : String.fromCodePoint(c), off, off + len, -1);
      s.prevCode = c;
      return;
    }
    // punctuation, symbols, controls
    s.punctChars += len;
    cur.punct++;
    if (isOddCode(c)) cur.odd++;
    if ((s.prevCode === 0xc3 || s.prevCode === 0xc2) && c >= 0x80 && c <= 0xbf) cur.mojibake++;
    if (isSentenceEnd(c)) cur.sentEnd++;
    if (c === 0x3c) s.tagState = 1;
    else if (c === 0x3e) s.tagState = 0;
    else if (s.tagState === 1) s.tagState = c === 0x2f || c === 0x21 ? 2 : 0;
    if (c < 128) this.token(T_PUNCT, '', off, off + 1, c);
    else this.token(T_PUNCT, len === 1 ? String.fromCharCode(c) : String.fromCodePoint(c), off, off + len, -1);
    s.prevCode = c;
  }

  private text(from: number, to: number): string {
    if (from >= this.dBase) return this.dText.slice(from - this.dBase, to - this.dBase);
    return this.store.slice(from, to);
  }

  private finishWord(end: number): void {
    const s = this.s;
    const start = s.wordStart;
    s.wordStart = -1;
    const len = end - start;
    let key = len <= MAX_KEY ? this.text(start, end) : this.text(start, start + MAX_KEY) + '#' + len;
    if (s.wordUpper || s.wordNonAscii) key = key.toLowerCase();
    const cur = this.cur;
    if (s.wordLatin > 0) {
      cur.letters += s.wordLatin;
      cur.latinLetters += s.wordLatin;
      cur.scripts[SC_LATIN]! += s.wordLatin;
    }
    if (s.wordLatin > 0 && s.wordDigits === 0 && s.wordOther === 0) {
      cur.latinWords++;
      cur.pureLatinLetters += s.wordLatin;
      cur.vowels += s.wordVowels;
      if (s.wordLatin >= 25) cur.gluedLetters += s.wordLatin;
    }
    this.token(s.wordInTag ? T_MARK : T_WORD, key, start, end, -1);
  }

  /** One token; `ascii` >= 0 is an ASCII punctuation char (interned by table, no string). */
  private token(kind: number, key: string, start: number, end: number, ascii: number): void {
    const s = this.s;
    let id: number | undefined = ascii >= 0 ? this.asciiIds[ascii]! : this.intern.get(key);
    let isNew = false;
    if (id === undefined || id < 0) {
      id = s.nextId++;
      isNew = true;
      if (!this.spec) {
        if (ascii >= 0) this.asciiIds[ascii] = id;
        else this.intern.set(key, id);
      }
    }
    const isWord = kind !== T_PUNCT;
    const cur = this.cur;
    if (isWord) {
      s.words++;
      cur.words++;
      if (isNew) s.distinctWords++;
      if (kind !== T_SOLO && key.length <= FW_MAX_LEN && FUNCTION_WORDS.has(key)) cur.fw++;
      if (s.prevIsWord && s.prevId === id) {
        s.wordRun++;
        if (s.wordRun === 2) cur.stutter++;
      } else {
        s.wordRun = 1;
        s.runStart = start;
      }
      if (s.wordRun > s.maxWordRun) {
        s.maxWordRun = s.wordRun;
        s.maxWordRunWord = key === '' ? String.fromCharCode(ascii) : key;
        s.maxWordRunStart = s.runStart;
      }
    } else {
      s.wordRun = 0;
    }
    s.prevId = id;
    s.prevIsWord = isWord;

    const n = s.nTok++;
    const slot = n & RING_MASK;
    this.ids[slot] = id;
    this.tStart[slot] = start;
    this.tEnd[slot] = end;
    const content = kind === T_WORD || kind === T_SOLO ? 1 : 0;
    this.tContent[slot] = content;

    let kprev = -1;
    if (n >= K - 1) {
      let h = 0x9e3779b1 | 0;
      for (let j = n - K + 1; j <= n; j++) h = Math.imul(h ^ this.ids[j & RING_MASK]!, 0x01000193) + 0x7f4a7c15 | 0;
      const ts = (h ^ (h >>> TABLE_BITS)) & TABLE_MASK;
      const p = this.kPos[ts]!;
      if (p >= 0 && this.kHash[ts] === h && n - p <= MAX_PERIOD) kprev = p;
      if (!this.spec) {
        this.kHash[ts] = h;
        this.kPos[ts] = n;
      }
    }
    this.loopStep(n, id, content, end, kprev);
  }

  private loopStep(n: number, id: number, content: number, end: number, kprev: number): void {
    const s = this.s;
    if (s.lp > 0) {
      let match = this.ids[(n - s.lp) & RING_MASK] === id;
      if (!match && kprev >= 0) {
        const d = n - kprev;
        if (d !== s.lp) {
          if (Math.abs(d - s.lp) <= Math.max(2, s.lp >> 3)) {
            s.lp = d;
            match = true;
          } else {
            this.closeRegion();
            this.openRegion(n, d, end);
            return;
          }
        }
      }
      if (match) {
        s.lScore += 1;
        s.lM++;
        if (content) s.lCM++;
      } else {
        s.lScore -= 2;
        s.lX++;
      }
      if (content) s.lCT++;
      if (s.lScore >= s.lBest) {
        s.lBest = s.lScore;
        s.lBestEnd = n;
        s.lBestEndChar = end;
        s.lBM = s.lM; s.lBX = s.lX; s.lBCM = s.lCM; s.lBCT = s.lCT;
      } else if (s.lScore < s.lBest - (12 + (s.lp0 >> 3))) {
        this.closeRegion();
      }
    } else if (kprev >= 0) {
      this.openRegion(n, n - kprev, end);
    }
  }

  private openRegion(n: number, d: number, end: number): void {
    const s = this.s;
    let a = n - K + 1;
    for (let steps = 0; steps < K && a - 1 - d >= 0 && a - 1 - d > n - RING; steps++) {
      if (this.ids[(a - 1) & RING_MASK] !== this.ids[(a - 1 - d) & RING_MASK]) break;
      a--;
    }
    if (a - d < 0 || a - d <= n - RING) {
      s.lp = 0;
      return;
    }
    let contentCount = 0;
    for (let j = a; j <= n; j++) contentCount += this.tContent[j & RING_MASK]!;
    s.lp = d; s.lp0 = d; s.la = a;
    s.lScore = n - a + 1; s.lBest = s.lScore; s.lBestEnd = n; s.lBestEndChar = end;
    s.lM = s.lScore; s.lX = 0; s.lCM = contentCount; s.lCT = contentCount;
    s.lBM = s.lM; s.lBX = 0; s.lBCM = contentCount; s.lBCT = contentCount;
    s.lUnitStart = this.tStart[(a - d) & RING_MASK]!;
    s.lUnitEnd = this.tStart[a & RING_MASK]!;
  }

  private closeRegion(): void {
    const s = this.s;
    if (s.lp === 0) return;
    s.lp = 0;
    const coveredTokens = s.lBestEnd - (s.la - s.lp0) + 1;
    const copies = coveredTokens / s.lp0;
    if (copies < 2) return;
    const similarity = s.lBM / (s.lBM + s.lBX);
    const r: Region = {
      periodTokens: s.lp0,
      unitStart: s.lUnitStart,
      unitEnd: s.lUnitEnd,
      end: s.lBestEndChar,
      coveredChars: s.lBestEndChar - s.lUnitStart,
      copies,
      similarity,
      contentSimilarity: s.lBCT > 0 ? s.lBCM / s.lBCT : similarity,
    };
    if (s.longest === null || r.coveredChars > s.longest.coveredChars) s.longest = r;
    const level = regionLevel(r, this.t);
    if (level > LEVEL_NONE) {
      s.coveredChars += r.coveredChars;
      if (level > s.worstLevel || (level === s.worstLevel && s.worst !== null && r.coveredChars > s.worst.coveredChars)) {
        s.worst = r;
        s.worstLevel = level;
      }
    }
  }

  private finishLine(nlOff: number): void {
    const s = this.s;
    const start = s.lineStart;
    s.lineStart = nlOff + 1;
    const len = nlOff - start;
    if (len <= 0) return;
    if (len > MAX_LINE) {
      s.nonBlankLines++;
      s.lineChars += len;
      return;
    }
    const line = this.text(start, nlOff).trim();
    if (line.length === 0) return;
    s.nonBlankLines++;
    s.lineChars += line.length;
    const count = (this.lines.get(line) ?? 0) + 1;
    if (!this.spec) this.lines.set(line, count);
    if (count === 2) s.dupLineChars += 2 * line.length;
    else if (count > 2) s.dupLineChars += line.length;
    if (count > s.topLineCount) {
      s.topLineCount = count;
      s.topLine = line;
    }
  }

  private finishBlock(off: number): void {
    const s = this.s;
    const b = this.cur;
    b.chars = off - s.blockStart;
    this.evaluateWindow(b, s.blockStart);
    s.prev3 = s.prev2;
    s.prev2 = s.prev1;
    s.prev1 = b;
    this.cur = newBlock();
    s.blockStart = off;
  }

  /** Flags the window made of the last WINDOW_BLOCKS blocks ending with `b`. */
  private evaluateWindow(b: Block, bStart: number): void {
    const s = this.s;
    s.totalLetters += b.letters;
    const w = newBlock();
    addBlock(w, b);
    let start = bStart;
    let blocks = 1;
    for (const p of [s.prev1, s.prev2, s.prev3]) {
      if (p === null) break;
      addBlock(w, p);
      start -= p.chars;
      blocks++;
    }
    if (s.headScript === SC_NONE && s.totalLetters >= 200) {
      // the opening script: the dominant one over the text so far (at most a few windows)
      let best = SC_NONE;
      for (let i = 1; i < SCRIPT_COUNT; i++) if (w.scripts[i]! > (best === SC_NONE ? 0 : w.scripts[best]!)) best = i;
      s.headScript = best;
    }
    if (blocks < WINDOW_BLOCKS && w.chars < BLOCK * WINDOW_BLOCKS) {
      // too short to judge; only a final partial window of a short text lands here
      if (w.chars < 600) return;
    }
    s.windowsEvaluated++;
    const flags = windowFlags(w, this.t, s.headScript);
    const runs = this.runs;
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

  /** Figures for the text so far (as if it ended here); leaves the state as it was. */
  figures(): RawFigures {
    const saved = { ...this.s };
    const savedCur = copyBlock(this.cur);
    const savedRuns = this.runs.slice();
    this.spec = true;
    try {
      const s = this.s;
      if (s.pendingHigh >= 0) {
        const hi = s.pendingHigh;
        s.pendingHigh = -1;
        this.bmp(hi, s.pos);
      }
      if (s.wordStart >= 0) this.finishWord(s.pos);
      if (s.pos > s.lineStart) this.finishLine(s.pos);
      this.cur.chars = s.pos - s.blockStart;
      if (this.cur.chars > 0) this.evaluateWindow(this.cur, s.blockStart);
      this.closeRegion();
      const f = this.s;
      const runs = this.runs;
      const flagMaxRun: number[] = [];
      const flagMaxRunStart: number[] = [];
      const flagWindows: number[] = [];
      for (let i = 0; i < FLAG_COUNT; i++) {
        flagMaxRun.push(runs[i * RUN_FIELDS + 2]!);
        flagMaxRunStart.push(runs[i * RUN_FIELDS + 3]!);
        flagWindows.push(runs[i * RUN_FIELDS + 4]!);
      }
      return {
        chars: f.pos, bytes: f.pos + f.extraBytes, words: f.words, distinctWords: f.distinctWords,
        nonSpace: f.pos - f.spaceChars, punctChars: f.punctChars, spaceChars: f.spaceChars,
        maxWsRun: f.maxWsRun, maxWsRunStart: f.maxWsRunStart,
        nonBlankLines: f.nonBlankLines, lineChars: f.lineChars, dupLineChars: f.dupLineChars,
        topLineCount: f.topLineCount, topLine: f.topLine,
        maxWordRun: f.maxWordRun, maxWordRunWord: f.maxWordRunWord, maxWordRunStart: f.maxWordRunStart,
        longest: f.longest, worst: f.worst, worstLevel: f.worstLevel, coveredChars: f.coveredChars,
        headScript: f.headScript, flagMaxRun, flagMaxRunStart, flagWindows, windows: f.windowsEvaluated,
        compression: this.comp.figures(f.pos),
      };
    } finally {
      this.spec = false;
      this.s = saved;
      this.cur = savedCur;
      this.runs = savedRuns;
    }
  }
}

const A_SPACE = 0;
const A_PUNCT = 1;
const A_LOWER = 2;
const A_UPPER = 3;
const A_DIGIT = 4;
/** ASCII chars by kind; letters and digits (and _) are >= A_LOWER. */
const ASCII = new Uint8Array(128);
const VOWEL = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const k = asciiClass(c);
  ASCII[c] = k === CH_SPACE ? A_SPACE : k === CH_PUNCT ? A_PUNCT : c >= 0x41 && c <= 0x5a ? A_UPPER : c >= 0x61 && c <= 0x7a ? A_LOWER : A_DIGIT;
  VOWEL[c] = isLatinVowel(c) ? 1 : 0;
}
const FW_MAX_LEN = Math.max(...[...FUNCTION_WORDS].map((w) => w.length));

function asciiClass(c: number): number {
  if (c <= 0x20) return c === 0x20 || (c >= 9 && c <= 13) ? CH_SPACE : CH_PUNCT;
  if (c >= 0x30 && c <= 0x39) return CH_WORD;
  if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) return CH_WORD;
  if (c === 0x5f) return CH_WORD;
  return CH_PUNCT;
}

/** Decide which window flags hold for the summed window `w`. */
function windowFlags(w: Block, t: Thresholds, head: number): number {
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
  if (w.letters >= 200) {
    let mixed = 0;
    for (let i = 1; i < SCRIPT_COUNT; i++) if (w.scripts[i]! >= w.letters * 0.12) mixed++;
    if (mixed >= 3) flags |= 1 << F_GIBBERISH;
    if (head !== SC_NONE && (w.letters - w.scripts[head]!) / w.letters >= t.scriptSwitchShare) flags |= 1 << F_SCRIPT;
  }
  if (w.stutter >= t.stutterRunsPerWindow) flags |= 1 << F_STUTTER;
  return flags;
}

