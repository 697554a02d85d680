/**
 * The analyzer's single pass. Every figure is updated per char or per token in O(1)
 * amortized time (one scan of chars; tokens = words, single CJK letters, single
 * punctuation chars), so a whole text and the same text pushed in any deltas end in
 * the same state. Loops are found from the token stream: a table of 4-token k-grams
 * gives, per token, the distance to the previous occurrence of the same k-gram, which
 * proposes a period; trackers then verify it token by token (see loopStep). Salad,
 * gibberish, stutter and script switches are judged on sliding windows of 768 UTF-8
 * bytes; near-loops also by the vocabulary of the last 128 words.
 *
 * A snapshot (figures) finishes the pending word, chunk, line, window and loop as if
 * the text ended there, reports, and restores: scalar state is copied, the few tables
 * it touches are undone from a log, and maps are only read. analyzeText is the same
 * engine fed once, so the final snapshot of a stream equals analyzeText of its text.
 */
import {
  CH_PUNCT, CH_SOLO, CH_SPACE, CH_WORD, SCRIPT_COUNT, SC_LATIN, SC_NONE,
  astralInfo, classOf, isLatinVowel, isOddCode, isSentenceEnd, scriptOfCode,
} from './charClass.js';
import { CompressionTracker, type CompressionFigures } from './compression.js';
import { FUNCTION_WORDS } from './functionWords.js';
import { ngramFractions, type NgramFractions } from './ngramFractions.js';
import type { Thresholds } from './thresholds.js';
import { TextStore } from './textStore.js';
import { WordTable } from './wordTable.js';

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
const CHUNK_SEED = 0x2545f491;
const RING_MASK = RING - 1;
const TABLE_BITS = 14;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** Window blocks (UTF-8 bytes) for salad, gibberish, stutter and script figures; a window is WINDOW_BLOCKS blocks. */
export const BLOCK = 256;
const WINDOW_BLOCKS = 3;
/** Lines longer than this are not counted for the repeated-line figures. */
const MAX_LINE = 2000;
const MAX_KEY = 64;
/** Letters in one word from which it counts as glued words (German compounds stay under). */
const GLUED = 25;
/** An HTML tag is shorter than this; past it a '<' was not a tag. */
const MAX_TAG = 300;
/** Content words in the sliding vocabulary window (near-loop / low-diversity detection). */
const DIV_WINDOW = 128;
/** Words kept for the n-gram repetition fractions (the whole text up to ~12 KB, else its tail). */
const NGRAM_WORDS = 2048;

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
  chunks: number;
  allLatin: number;
  allVowels: number;
  garbled: number;
  upper: number;
  scripts: Int32Array;
}

function newBlock(): Block {
  return {
    chars: 0, spaces: 0, words: 0, latinWords: 0, fw: 0, sentEnd: 0, newlines: 0, letters: 0,
    latinLetters: 0, vowels: 0, pureLatinLetters: 0, gluedLetters: 0, odd: 0, mojibake: 0,
    stutter: 0, punct: 0, chunks: 0, allLatin: 0, allVowels: 0, garbled: 0, upper: 0, scripts: new Int32Array(SCRIPT_COUNT),
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
  into.stutter += b.stutter; into.punct += b.punct; into.chunks += b.chunks;
  into.allLatin += b.allLatin; into.allVowels += b.allVowels; into.garbled += b.garbled; into.upper += b.upper;
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
  divN: number;
  divDistinct: number;
  divNumeric: number;
  divRun: number;
  divRunStart: number;
  divMaxRun: number;
  divMaxRunStart: number;
  divMaxDistinct: number;
  tagStart: number;
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
  // loop trackers (two candidates followed at once)
  tr: [Tracker, Tracker];
  chunkHash: number;
  chunkToks: number;
  chunkHasWord: boolean;
  prevChunkHash: number;
  chunkRun: number;
  wordFlips: number;
  wordHash: number;
  wordUppers: number;
  // loop results
  longest: Region | null;
  worst: Region | null;
  lastRegion: Region | null;
  lastLevel: number;
  worstLevel: number;
  coveredChars: number;
  // blocks & windows
  blockStart: number;
  /** UTF-8 byte offset of the block start: blocks are 256 bytes, so dense scripts (CJK) get as much text per window as Latin. */
  blockByte: number;
  wordAccounted: number;
  wordVowelsAccounted: number;
  prev1: Block | null;
  prev2: Block | null;
  headScript: number;
  totalLetters: number;
  windowsEvaluated: number;
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
  unitStart: number;
  unitEnd: number;
  lastMatch: boolean;
}

function newTracker(): Tracker {
  return { p: 0, p0: 0, a: 0, score: 0, best: 0, bestEnd: 0, bestEndChar: 0, m: 0, x: 0, cm: 0, ct: 0, bm: 0, bx: 0, bcm: 0, bct: 0, unitStart: 0, unitEnd: 0, lastMatch: false };
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
  /** Longest run of content words whose last-128-word window had few distinct words, its start and distinct count. */
  lowDiversityRun: number;
  lowDiversityStart: number;
  lowDiversityDistinct: number;
  /** The same run, if it is still going on at the end of the text (0 otherwise). */
  lowDiversityCurRun: number;
  /** Per flag: run of flagged windows still going on at the end of the text. */
  flagCurRun: number[];
  flagMaxRun: number[];
  flagMaxRunStart: number[];
  flagWindows: number[];
  windows: number;
  compression: CompressionFigures;
  /** Over the last 2048 words. */
  ngrams: NgramFractions;
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
  private readonly words = new WordTable();
  private readonly asciiIds = new Int32Array(128).fill(-1);
  private readonly lines = new Map<string, number>();
  private readonly ids = new Int32Array(RING);
  private readonly tStart = new Int32Array(RING);
  private readonly tEnd = new Int32Array(RING);
  private readonly tContent = new Uint8Array(RING);
  private readonly kHash = new Int32Array(1 << TABLE_BITS);
  private readonly kPos = new Int32Array(1 << TABLE_BITS).fill(-1);
  private spec = false;
  /** Per word id: 1 when it is a function word (looked up once, when the word is first seen). */
  private fw = new Uint8Array(1024);
  private divCounts = new Int32Array(1024);
  private readonly divRing = new Int32Array(DIV_WINDOW);
  private readonly divPos = new Int32Array(DIV_WINDOW);
  private readonly divTok = new Int32Array(DIV_WINDOW);
  private readonly divNum = new Uint8Array(DIV_WINDOW);
  private readonly divUndo: number[] = [];
  private readonly wIds = new Int32Array(NGRAM_WORDS);
  private readonly wLens = new Int32Array(NGRAM_WORDS);
  /** Slot, id and length overwritten by a speculative word (restored after a snapshot). */
  private wUndo: number[] = [];
  /** Delta string being scanned and its char offset, to slice tokens without the store. */
  private dText = '';
  private dBase = 0;

  constructor(private readonly t: Thresholds) {
    this.comp = new CompressionTracker(this.store);
    this.s = {
      pos: 0, extraBytes: 0, pendingHigh: -1, prevCode: -1, punctChars: 0, spaceChars: 0,
      wsRun: 0, wsRunStart: -1, maxWsRun: 0, maxWsRunStart: -1,
      lineStart: 0, nonBlankLines: 0, lineChars: 0, dupLineChars: 0, topLineCount: 0, topLine: '',
      wordStart: -1, wordInTag: false, wordLatin: 0, wordVowels: 0, wordDigits: 0, wordOther: 0, wordUpper: false, wordNonAscii: false, tagState: 0, divN: 0, divDistinct: 0, divNumeric: 0, divRun: 0, divRunStart: -1, divMaxRun: 0, divMaxRunStart: -1, divMaxDistinct: 0, tagStart: 0,
      nTok: 0, nextId: 0, words: 0, distinctWords: 0, prevId: -1, prevIsWord: false,
      wordRun: 0, maxWordRun: 0, maxWordRunWord: '', maxWordRunStart: -1, runStart: -1,
      tr: [newTracker(), newTracker()], chunkHash: CHUNK_SEED, chunkToks: 0, chunkHasWord: false, prevChunkHash: 0, chunkRun: 0, wordFlips: 0, wordHash: 0, wordUppers: 0,
      longest: null, worst: null, lastRegion: null, lastLevel: 0, worstLevel: 0, coveredChars: 0,
      blockStart: 0, blockByte: 0, wordAccounted: 0, wordVowelsAccounted: 0, prev1: null, prev2: null, headScript: SC_NONE, totalLetters: 0,
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
        // Fast path: ASCII letters and digits inside a word (most chars of most texts),
        // taken in a tight inner loop up to the end of the word or of the block.
        if (a >= A_LOWER && s.wordStart >= 0) {
          const room = BLOCK - (s.pos + s.extraBytes - s.blockByte);
          if (room > 0) {
            const limit = Math.min(n, i + room);
            let j = i;
            let prev = s.prevCode;
            let latin = 0;
            let vowels = 0;
            let digits = 0;
            let uppers = 0;
            let flips = 0;
            let h = s.wordHash;
            while (j < limit) {
              const cj = str.charCodeAt(j);
              if (cj >= 128) break;
              const aj = ASCII[cj]!;
              if (aj < A_LOWER) break;
              h = Math.imul(h ^ LOWER[cj]!, 0x01000193);
              if (aj === A_DIGIT) digits++;
              else {
                latin++;
                vowels += VOWEL[cj]!;
                if (aj === A_UPPER) {
                  uppers++;
                  if (prev >= 0x61 && prev <= 0x7a) flips++;
                }
              }
              prev = cj;
              j++;
            }
            s.pos += j - i;
            s.wordHash = h;
            s.prevCode = prev;
            s.wordLatin += latin;
            s.wordVowels += vowels;
            s.wordDigits += digits;
            if (uppers > 0) {
              s.wordUpper = true;
              s.wordUppers += uppers;
              s.wordFlips += flips;
            }
            i = j - 1;
            continue;
          }
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
    if (off + s.extraBytes - s.blockByte >= BLOCK) this.finishBlock(off);
    const cur = this.cur;
    s.pos = off + len;
    if (c >= 0x80) s.extraBytes += len === 2 ? 2 : c < 0x800 ? 1 : 2;
    if (cls === CH_SPACE) {
      if (s.chunkToks > 0) this.finishChunk();
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
        if (s.tagState === 2 && off - s.tagStart > MAX_TAG) s.tagState = 0; // a stray '<' in code or prose
        s.wordInTag = s.tagState === 2;
        s.wordLatin = 0; s.wordVowels = 0; s.wordDigits = 0; s.wordOther = 0;
        s.wordUpper = false; s.wordNonAscii = false; s.wordFlips = 0; s.wordUppers = 0;
        s.wordHash = WORD_SEED;
      }
      if (c >= 0x80) s.wordNonAscii = true;
      else {
        s.wordHash = Math.imul(s.wordHash ^ LOWER[c]!, 0x01000193);
        if (c >= 0x41 && c <= 0x5a) {
          s.wordUpper = true;
          s.wordUppers++;
          if (s.prevCode >= 0x61 && s.prevCode <= 0x7a) s.wordFlips++;
        }
      }
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
    if (c === 0x3c) {
      s.tagState = 1;
      s.tagStart = off;
    }
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
    // ASCII words are interned by the hash the scan computed; others by their lower-cased text
    const hashed = !s.wordNonAscii && len <= MAX_KEY;
    let known = hashed ? this.words.get(s.wordHash, len) : -1;
    let key = '';
    if (known < 0) {
      key = len <= MAX_KEY ? this.text(start, end) : this.text(start, start + MAX_KEY) + '#' + len;
      if (s.wordUpper || s.wordNonAscii) key = key.toLowerCase();
      if (!hashed) known = this.intern.get(key) ?? -1;
    }
    const cur = this.cur;
    const latin = s.wordLatin - s.wordAccounted;
    const vowels = s.wordVowels - s.wordVowelsAccounted;
    s.wordAccounted = 0;
    s.wordVowelsAccounted = 0;
    if (latin > 0) {
      cur.letters += latin;
      cur.latinLetters += latin;
      cur.scripts[SC_LATIN]! += latin;
    }
    if (s.wordLatin > 0) {
      cur.allLatin += latin;
      cur.allVowels += vowels;
      cur.upper += s.wordUppers;
      if ((s.wordDigits > 0 && !HEX.test(key || this.text(start, end))) || s.wordFlips >= 2) cur.garbled++;
    }
    if (s.wordLatin > 0 && s.wordDigits === 0 && s.wordOther === 0 && !s.wordInTag) {
      cur.latinWords++;
      cur.pureLatinLetters += latin;
      cur.vowels += vowels;
      if (s.wordLatin >= GLUED) cur.gluedLetters += latin;
    }
    this.token(s.wordInTag ? T_MARK : T_WORD, key, start, end, -1, known, hashed ? s.wordHash : 0, hashed ? len : -1);
  }

  /**
   * One token. `ascii` >= 0: an ASCII punctuation char (interned by table, key unused).
   * Words come with their id when already known (`known` >= 0); a new hashed word
   * (`hashLen` >= 0) is added to the hash table, any other new token to the string map.
   */
  private token(kind: number, key: string, start: number, end: number, ascii: number, known = -2, hash = 0, hashLen = -1): void {
    const s = this.s;
    let id: number | undefined = ascii >= 0 ? this.asciiIds[ascii]! : known >= -1 ? known : this.intern.get(key);
    let isNew = false;
    if (id === undefined || id < 0) {
      id = s.nextId++;
      isNew = true;
      if (!this.spec) {
        if (ascii >= 0) this.asciiIds[ascii] = id;
        else if (hashLen >= 0) this.words.set(hash, hashLen, id);
        else this.intern.set(key, id);
        if (id >= this.fw.length) {
          const grown = new Uint8Array(this.fw.length * 2);
          grown.set(this.fw);
          this.fw = grown;
        }
        this.fw[id] = kind !== T_SOLO && kind !== T_PUNCT && key.length <= FW_MAX_LEN && FUNCTION_WORDS.has(key) ? 1 : 0;
      }
    }
    const isWord = kind !== T_PUNCT;
    const cur = this.cur;
    if (isWord) {
      const ws = s.words % NGRAM_WORDS;
      if (this.spec) this.wUndo.push(ws, this.wIds[ws]!, this.wLens[ws]!);
      this.wIds[ws] = id;
      this.wLens[ws] = end - start;
      s.words++;
      cur.words++;
      if (isNew) s.distinctWords++;
      if (isNew ? kind !== T_SOLO && key.length <= FW_MAX_LEN && FUNCTION_WORDS.has(key) : this.fw[id] === 1) cur.fw++;
      if (s.prevIsWord && s.prevId === id) {
        s.wordRun++;
      } else {
        s.wordRun = 1;
        s.runStart = start;
      }
      if (s.wordRun > s.maxWordRun) {
        s.maxWordRun = s.wordRun;
        s.maxWordRunWord = ascii >= 0 ? String.fromCharCode(ascii) : key !== '' ? key : this.text(start, end).toLowerCase();
        s.maxWordRunStart = s.runStart;
      }
    } else {
      s.wordRun = 0;
    }
    if (kind === T_WORD || kind === T_SOLO) this.diversity(id, start, isDigit(key.charCodeAt(0)) ? 1 : 0);
    s.prevId = id;
    s.prevIsWord = isWord;
    s.chunkHash = Math.imul(s.chunkHash ^ id, 0x01000193) + 0x3c6ef372 | 0;
    s.chunkToks++;
    if (isWord) s.chunkHasWord = true;

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

  /**
   * Loop tracking, one step per token. A candidate period comes from the k-gram table
   * (distance to the previous occurrence of the last K tokens). A tracker follows one
   * period: each token is compared with the token one period earlier; a small shift
   * (an inserted or dropped word) re-syncs the period, and an X-drop score ends the
   * tracker when matches stop. Two trackers run at once, so a loop is still followed
   * while a stray match (a repeated phrase inside the unit, an older natural occurrence
   * of the unit) is tried and dropped.
   */
  private loopStep(n: number, id: number, content: number, end: number, kprev: number): void {
    const tr = this.s.tr;
    const d = kprev >= 0 ? n - kprev : 0;
    let explained = d === 0;
    for (let i = 0; i < 2; i++) {
      const t = tr[i]!;
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
      if (t.score >= t.best) {
        t.best = t.score;
        t.bestEnd = n;
        t.bestEndChar = end;
        t.bm = t.m; t.bx = t.x; t.bcm = t.cm; t.bct = t.ct;
      } else if (t.score < t.best - (12 + (t.p0 >> 3))) {
        this.closeTracker(t);
      }
    }
    if (explained) return;
    // a new candidate period: take a free tracker, else the one that is failing
    let slot: Tracker | null = null;
    const t0 = tr[0]!;
    const t1 = tr[1]!;
    if (t0.p === 0) slot = t0;
    else if (t1.p === 0) slot = t1;
    else if (!t0.lastMatch && (t1.lastMatch || t0.best <= t1.best)) slot = t0;
    else if (!t1.lastMatch) slot = t1;
    if (slot === null) return;
    this.closeTracker(slot);
    this.openTracker(slot, n, d, end);
  }

  /** Start following period d from the k-gram that ends at token n (extended back while tokens still match). */
  private openTracker(t: Tracker, n: number, d: number, end: number): void {
    let a = n - K + 1;
    for (let steps = 0; steps < K && a - 1 - d >= 0 && a - 1 - d > n - RING; steps++) {
      if (this.ids[(a - 1) & RING_MASK] !== this.ids[(a - 1 - d) & RING_MASK]) break;
      a--;
    }
    if (a - d < 0 || a - d <= n - RING) return;
    let contentCount = 0;
    for (let j = a; j <= n; j++) contentCount += this.tContent[j & RING_MASK]!;
    t.p = d; t.p0 = d; t.a = a;
    t.score = n - a + 1; t.best = t.score; t.bestEnd = n; t.bestEndChar = end;
    t.m = t.score; t.x = 0; t.cm = contentCount; t.ct = contentCount;
    t.bm = t.m; t.bx = 0; t.bcm = contentCount; t.bct = contentCount;
    t.unitStart = this.tStart[(a - d) & RING_MASK]!;
    t.unitEnd = this.tStart[a & RING_MASK]!;
    t.lastMatch = true;
  }

  /** Stop a tracker and record what it found, if it repeated at least twice. */
  private closeTracker(t: Tracker): void {
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
    };
    // A near-loop whose copies drift (words inserted and dropped) breaks into pieces
    // with the same period, each starting where the previous one ended: chain them.
    const last = s.lastRegion;
    if (last !== null && r.end > last.end && Math.abs(r.periodTokens - last.periodTokens) <= Math.max(2, last.periodTokens >> 3)
      && r.unitStart <= last.end + (last.unitEnd - last.unitStart) && r.unitStart >= last.unitStart) {
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

  /**
   * Distinct content words among the last DIV_WINDOW: a loop or near-loop keeps
   * cycling through a handful of words (prose uses 60+ distinct words per 128). Counts
   * live in a table indexed by word id; a speculative step is undone by figures().
   */
  private diversity(id: number, start: number, numeric: number): void {
    const s = this.s;
    const n = s.divN++;
    const slot = n % DIV_WINDOW;
    const removed = n >= DIV_WINDOW ? this.divRing[slot]! : -1;
    if (this.spec) this.divUndo.push(slot, this.divRing[slot]!, this.divPos[slot]!, removed, id, this.divTok[slot]!, this.divNum[slot]!);
    if (removed >= 0) {
      if (--this.divCounts[removed]! === 0) s.divDistinct--;
      s.divNumeric -= this.divNum[slot]!;
    }
    this.divPos[slot] = start;
    this.divRing[slot] = id;
    this.divTok[slot] = s.nTok;
    this.divNum[slot] = numeric;
    s.divNumeric += numeric;
    if (id >= this.divCounts.length) {
      const grown = new Int32Array(Math.max(id + 1, this.divCounts.length * 2));
      grown.set(this.divCounts);
      this.divCounts = grown;
    }
    if (this.divCounts[id]!++ === 0) s.divDistinct++;
    // Data (numbers) and code (as many symbols as words) cycle through fewer words by nature:
    // numbers are not counted, and code-like windows need half as many distinct words.
    const oldest = (n + 1) % DIV_WINDOW;
    const codeLike = s.nTok - this.divTok[oldest]! > DIV_WINDOW * 1.6;
    if (n + 1 >= DIV_WINDOW && s.divDistinct <= (codeLike ? this.t.lowDiversityMax >> 1 : this.t.lowDiversityMax) && s.divNumeric * 10 <= DIV_WINDOW * 3) {
      if (s.divRun === 0) s.divRunStart = this.divPos[oldest]!;
      s.divRun++;
      if (s.divRun > s.divMaxRun) {
        s.divMaxRun = s.divRun;
        s.divMaxRunStart = s.divRunStart;
        s.divMaxDistinct = s.divDistinct;
      }
    } else s.divRun = 0;
  }

  /** Undo the speculative diversity steps of a snapshot (tables only; scalars are restored with the state). */
  private undoDiversity(): void {
    const u = this.divUndo;
    for (let i = u.length - 7; i >= 0; i -= 7) {
      const slot = u[i]!;
      const removed = u[i + 3]!;
      this.divCounts[u[i + 4]!]!--;
      if (removed >= 0) this.divCounts[removed]!++;
      this.divRing[slot] = u[i + 1]!;
      this.divPos[slot] = u[i + 2]!;
      this.divTok[slot] = u[i + 5]!;
      this.divNum[slot] = u[i + 6]!;
    }
    u.length = 0;
  }

  /** A whitespace-delimited chunk ended: count back-to-back repeats of it ("use use", `"name": "name":`). */
  private finishChunk(): void {
    const s = this.s;
    if (s.chunkHasWord) {
      if (s.chunkHash === s.prevChunkHash) {
        s.chunkRun++;
        if (s.chunkRun === 2) this.cur.stutter++;
      } else s.chunkRun = 1;
      this.cur.chunks++;
      s.prevChunkHash = s.chunkHash;
    } else {
      s.prevChunkHash = 0;
      s.chunkRun = 0;
    }
    s.chunkHash = CHUNK_SEED;
    s.chunkToks = 0;
    s.chunkHasWord = false;
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
    // a very long word (glued words) still pending: count its letters in the block they fell in
    if (s.wordStart >= 0 && s.wordLatin >= GLUED && s.wordDigits === 0 && s.wordOther === 0) {
      const add = s.wordLatin - s.wordAccounted;
      b.letters += add; b.latinLetters += add; b.scripts[SC_LATIN]! += add;
      b.pureLatinLetters += add; b.gluedLetters += add; b.allLatin += add;
      const v = s.wordVowels - s.wordVowelsAccounted;
      b.vowels += v; b.allVowels += v;
      s.wordAccounted = s.wordLatin;
      s.wordVowelsAccounted = s.wordVowels;
    }
    this.evaluateWindow(b, s.blockStart);
    s.prev2 = s.prev1;
    s.prev1 = b;
    this.cur = newBlock();
    s.blockStart = off;
    s.blockByte = off + s.extraBytes;
  }

  /** Flags the window made of the last WINDOW_BLOCKS blocks ending with `b`. */
  private evaluateWindow(b: Block, bStart: number): void {
    const s = this.s;
    s.totalLetters += b.letters;
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

  /** N-gram fractions over the last NGRAM_WORDS words, in text order. */
  private ngrams(words: number): NgramFractions {
    const count = Math.min(words, NGRAM_WORDS);
    const ids = new Int32Array(count);
    const lens = new Int32Array(count);
    const first = words - count;
    for (let i = 0; i < count; i++) {
      const slot = (first + i) % NGRAM_WORDS;
      ids[i] = this.wIds[slot]!;
      lens[i] = this.wLens[slot]!;
    }
    return ngramFractions(ids, lens, count);
  }

  /** Figures for the text so far (as if it ended here); leaves the state as it was. */
  figures(): RawFigures {
    const saved = { ...this.s, tr: [{ ...this.s.tr[0] }, { ...this.s.tr[1] }] as [Tracker, Tracker] };
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
      if (s.chunkToks > 0) this.finishChunk();
      if (s.pos > s.lineStart) this.finishLine(s.pos);
      this.cur.chars = s.pos - s.blockStart;
      if (this.cur.chars > 0) this.evaluateWindow(this.cur, s.blockStart);
      this.closeTracker(this.s.tr[0]);
      this.closeTracker(this.s.tr[1]);
      const f = this.s;
      const runs = this.runs;
      const flagMaxRun: number[] = [];
      const flagMaxRunStart: number[] = [];
      const flagWindows: number[] = [];
      const flagCurRun: number[] = [];
      for (let i = 0; i < FLAG_COUNT; i++) {
        flagCurRun.push(runs[i * RUN_FIELDS]!);
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
        headScript: f.headScript, lowDiversityRun: f.divMaxRun, lowDiversityStart: f.divMaxRunStart, lowDiversityDistinct: f.divMaxDistinct, lowDiversityCurRun: f.divRun, flagCurRun, flagMaxRun, flagMaxRunStart, flagWindows, windows: f.windowsEvaluated,
        compression: this.comp.figures(f.pos),
        ngrams: this.ngrams(f.words),
      };
    } finally {
      this.spec = false;
      this.undoDiversity();
      for (let i = this.wUndo.length - 3; i >= 0; i -= 3) {
        this.wIds[this.wUndo[i]!] = this.wUndo[i + 1]!;
        this.wLens[this.wUndo[i]!] = this.wUndo[i + 2]!;
      }
      this.wUndo.length = 0;
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
const HEX = /^[0-9a-f]+$/i;
const WORD_SEED = 0x811c9dc5 | 0;
/** ASCII lower-casing table for word hashes. */
const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) LOWER[c] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
const FW_MAX_LEN = Math.max(...[...FUNCTION_WORDS].map((w) => w.length));

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** True when p is close to a multiple (2+) of q: q is then the loop's real period. */
function isMultiple(p: number, q: number): boolean {
  const m = Math.round(p / q);
  return m >= 2 && Math.abs(p - m * q) <= Math.max(2, q >> 3);
}

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
  // Char soup ("8eNwV5L0^ Q>Fx"): tokens mixing digits and letters or flipping case, few
  // vowels, upper and lower case mixed at random (code types like uint64_t are lower case).
  if (words >= 40 && w.allLatin >= 200 && w.garbled / words >= t.garbledTokenShare && w.allVowels / w.allLatin < 0.3
    && w.upper >= 0.2 * w.allLatin && w.upper <= 0.8 * w.allLatin) flags |= 1 << F_GIBBERISH;
  if (w.letters >= 200) {
    let mixed = 0;
    for (let i = 1; i < SCRIPT_COUNT; i++) if (w.scripts[i]! >= w.letters * 0.12) mixed++;
    if (mixed >= 3) flags |= 1 << F_GIBBERISH;
  }
  // 100 letters: a 768-byte window of Devanagari or Han holds 150-250
  if (w.letters >= 100 && head !== SC_NONE && (w.letters - w.scripts[head]!) / w.letters >= t.scriptSwitchShare) flags |= 1 << F_SCRIPT;
  if (w.stutter >= 6 && w.stutter >= t.stutterShare * w.chunks) flags |= 1 << F_STUTTER;
  return flags;
}

