/**
 * The analyzer's tokenizer and the loop over its detectors. One scan of chars splits the
 * text into tokens (words, single CJK letters, single punctuation chars), lines, runs of
 * whitespace and 256-byte blocks of char statistics, and hands each to the detectors that
 * take it; every detector also sees the raw deltas. Work per char is O(1) amortized, so a
 * whole text and the same text pushed in any deltas end in the same state.
 *
 * A snapshot (figures) saves every detector, finishes the pending word, line, block and
 * loops as if the text ended there, reads each detector's figures, and restores: scalar
 * state is copied, the few tables that change are undone from logs, and maps are only
 * read. analyzeText is the same engine fed once, so the final snapshot of a stream equals
 * analyzeText of its text.
 */
import { type Block, newBlock, copyBlock } from './blockStats.js';
import {
  CH_PUNCT,
  CH_SOLO,
  CH_SPACE,
  CH_WORD,
  SC_LATIN,
  SC_NONE,
  astralInfo,
  classOf,
  isLatinVowel,
  isOddCode,
  isSentenceEnd,
  scriptOfCode,
} from './charClass.js';
import type { Detector, JudgeContext, TextView } from './detectors/detector.js';
import {
  TF_AFTER_NL,
  TF_CONTENT,
  TF_NEW,
  TF_NUMERIC,
  TF_WORDISH,
  TK_MARK,
  TK_PUNCT,
  TK_SOLO,
  TK_WORD,
  type EngineDetector,
} from './detectors/engineDetector.js';
import { createDetectors, type Detectors, type Figures } from './detectors/registry.js';
import { BLOCK } from './detectors/windows.js';
import type { Finding } from './finding.js';
import { FUNCTION_WORDS } from './functionWords.js';
import type { Thresholds } from './thresholds.js';
import { TextStore } from './textStore.js';
import { WordTable } from './wordTable.js';

const CHUNK_SEED = 0x2545f491;
const MAX_KEY = 64;
/**
 * Letters in one word from which it counts as glued words. Long words, German compounds and
 * camelCase API names (performanceResourceTiming 25, ReadableStreamDefaultController 31) stay
 * under; prose that lost its spaces runs a sentence together (15-20 words, ~80-100 letters).
 * At 25, Node's and libxslt's HTML API indexes failed as word salad; at 40 the synthetic glued
 * collapses are all still found.
 */
const GLUED = 40;
/** An HTML tag is shorter than this; past it a '<' was not a tag. */
const MAX_TAG = 300;
/** An HTML comment is shorter than this; past it an unclosed "<!--" no longer hides the text. */
const MAX_COMMENT = 4096;

/** Figures of the tokenizer itself. */
export interface BaseFigures {
  chars: number;
  bytes: number;
  /** Word tokens (words, tag words, CJK letters). */
  words: number;
  distinctWords: number;
  punctChars: number;
}

/** Everything the tokenizer changes per char or token, as plain values so a snapshot can copy it. */
interface State {
  pos: number;
  extraBytes: number;
  pendingHigh: number;
  prevCode: number;
  punctChars: number;
  wsRun: number;
  wsRunStart: number;
  lineStart: number;
  afterNl: boolean;
  // pending word
  wordStart: number;
  wordInTag: boolean;
  wordLatin: number;
  wordVowels: number;
  wordDigits: number;
  wordOther: number;
  wordUpper: boolean;
  wordNonAscii: boolean;
  wordFlips: number;
  wordHash: number;
  wordUppers: number;
  /** The pending word starts with a digit (a number, for the vocabulary window). */
  wordNumeric: boolean;
  tagState: number;
  tagStart: number;
  // code and URLs, whose Latin letters are the markup's, not the writer's language
  /** Inside a fenced code block (a line opening with ``` toggles it). */
  fence: boolean;
  /** Inside an inline code span (a backtick toggles it; a line break ends it). */
  inlineCode: boolean;
  /** Backticks that open the current line so far; -1 once anything else came. */
  lineTicks: number;
  /** Progress through "://" (1 after ':', 2 after ':/'), then 3 inside the URL until a space or bracket. */
  url: number;
  /** Progress through "<!--" (1-3), 4 inside an HTML comment, 5-6 through its "--" before ">". */
  comment: number;
  commentStart: number;
  /** Where the last word ended and whether it was prose (not code, markup or an address). */
  lastWordEnd: number;
  lastWordProse: boolean;
  // tokens
  nTok: number;
  nextId: number;
  words: number;
  distinctWords: number;
  // whitespace-delimited chunks (stutter)
  chunkHash: number;
  chunkToks: number;
  chunkHasWord: boolean;
  prevChunkHash: number;
  chunkRun: number;
  // blocks
  blockStart: number;
  /** UTF-8 byte offset of the block start: blocks are 256 bytes, so dense scripts (CJK) get as much text per block as Latin. */
  blockByte: number;
  wordAccounted: number;
  wordVowelsAccounted: number;
}

type TokenHook = NonNullable<EngineDetector['token']>;
type LineHook = NonNullable<EngineDetector['line']>;
type WhitespaceHook = NonNullable<EngineDetector['whitespace']>;

export class Engine {
  readonly store = new TextStore();
  readonly detectors: Detectors;
  private readonly all: Array<Detector & Partial<EngineDetector>>;
  /** Detectors with a snapshot state of their own (save/restore), and every detector by name. */
  private readonly snapshotted: EngineDetector[];
  private readonly named: Array<[keyof Detectors, Detector]>;
  private readonly pushSinks: Array<{ push: NonNullable<Detector['push']> }>;
  private readonly tokenSinks: Array<{ token: TokenHook }>;
  private readonly lineSinks: Array<{ line: LineHook }>;
  private readonly whitespaceSinks: Array<{ whitespace: WhitespaceHook }>;
  private s: State;
  private cur: Block = newBlock();
  private readonly intern = new Map<string, number>();
  private readonly words = new WordTable();
  private readonly asciiIds = new Int32Array(128).fill(-1);
  private spec = false;
  /** Per word id: 1 when it is a function word (looked up once, when the word is first seen). */
  private fw = new Uint8Array(1024);
  /** Delta string being scanned and its char offset, to slice tokens without the store. */
  private dText = '';
  private dBase = 0;
  private readonly view: TextView;

  constructor(t: Thresholds) {
    this.detectors = createDetectors(t, this.store);
    this.all = Object.values(this.detectors) as Array<Detector & Partial<EngineDetector>>;
    this.snapshotted = this.all.filter((d): d is EngineDetector => typeof d.save === 'function');
    this.named = Object.entries(this.detectors) as Array<[keyof Detectors, Detector]>;
    this.pushSinks = this.all.filter((d): d is Detector & { push: NonNullable<Detector['push']> } => typeof d.push === 'function');
    this.tokenSinks = this.all.filter((d): d is Detector & { token: TokenHook } => typeof d.token === 'function');
    this.lineSinks = this.all.filter((d): d is Detector & { line: LineHook } => typeof d.line === 'function');
    this.whitespaceSinks = this.all.filter((d): d is Detector & { whitespace: WhitespaceHook } => typeof d.whitespace === 'function');
    const store = this.store;
    this.view = {
      get length() {
        return store.size;
      },
      slice: (a, b) => store.slice(a, b),
    };
    this.s = {
      pos: 0,
      extraBytes: 0,
      pendingHigh: -1,
      prevCode: -1,
      punctChars: 0,
      wsRun: 0,
      wsRunStart: -1,
      lineStart: 0,
      afterNl: false,
      wordStart: -1,
      wordInTag: false,
      wordLatin: 0,
      wordVowels: 0,
      wordDigits: 0,
      wordOther: 0,
      wordUpper: false,
      wordNonAscii: false,
      wordFlips: 0,
      wordHash: 0,
      wordUppers: 0,
      wordNumeric: false,
      tagState: 0,
      tagStart: 0,
      fence: false,
      inlineCode: false,
      lineTicks: 0,
      url: 0,
      comment: 0,
      commentStart: 0,
      lastWordEnd: -1,
      lastWordProse: false,
      nTok: 0,
      nextId: 0,
      words: 0,
      distinctWords: 0,
      chunkHash: CHUNK_SEED,
      chunkToks: 0,
      chunkHasWord: false,
      prevChunkHash: 0,
      chunkRun: 0,
      blockStart: 0,
      blockByte: 0,
      wordAccounted: 0,
      wordVowelsAccounted: 0,
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
    const offset = this.store.size;
    this.store.append(delta);
    this.dText = delta;
    this.dBase = offset;
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
    for (const d of this.pushSinks) d.push(delta, offset);
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
        this.char(
          c,
          a === A_SPACE ? CH_SPACE : a === A_PUNCT ? CH_PUNCT : CH_WORD,
          a === A_LOWER || a === A_UPPER ? SC_LATIN : SC_NONE,
          s.pos,
          1,
        );
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
      this.char(
        c,
        a === A_SPACE ? CH_SPACE : a === A_PUNCT ? CH_PUNCT : CH_WORD,
        a === A_LOWER || a === A_UPPER ? SC_LATIN : SC_NONE,
        off,
        1,
      );
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
      cur.spaces++;
      if (s.wsRun === 0) s.wsRunStart = off;
      s.wsRun++;
      if (s.tagState === 1) s.tagState = 0;
      // a sentence of prose ends: ". " right after a word that is not code or an address
      if ((s.prevCode === 0x2e || s.prevCode === 0x21 || s.prevCode === 0x3f) && s.lastWordEnd === off - 1 && s.lastWordProse)
        cur.proseEnds++;
      s.url = 0;
      if (s.comment > 4) s.comment = 4;
      else if (s.comment < 4) s.comment = 0;
      if (c === 10) {
        cur.newlines++;
        this.finishLine(off);
        s.tagState = 0;
        s.afterNl = true;
        s.inlineCode = false;
        s.lineTicks = 0;
      }
      s.prevCode = c;
      return;
    }
    if (s.wsRun > 0) this.finishWhitespace();
    if (s.lineTicks >= 0 && c !== 0x60) this.endLineTicks(); // once per line: the first char after its leading backticks
    if (cls !== CH_PUNCT) {
      if (s.url === 1 || s.url === 2) s.url = 0; // "C:/path" is no URL
      if (s.comment > 4) s.comment = 4;
      else if (s.comment < 4) s.comment = 0;
    }
    if (cls === CH_WORD) {
      if (s.tagState === 1) s.tagState = 2;
      if (s.wordStart < 0) {
        s.wordStart = off;
        if (s.tagState === 2 && off - s.tagStart > MAX_TAG) s.tagState = 0; // a stray '<' in code or prose
        s.wordInTag = s.tagState === 2;
        s.wordLatin = 0;
        s.wordVowels = 0;
        s.wordDigits = 0;
        s.wordOther = 0;
        s.wordUpper = false;
        s.wordNonAscii = false;
        s.wordFlips = 0;
        s.wordUppers = 0;
        s.wordHash = WORD_SEED;
        s.wordNumeric = c >= 0x30 && c <= 0x39;
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
      this.token(TK_SOLO, len === 1 ? String.fromCharCode(c) : String.fromCodePoint(c), off, off + len, -1);
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
    } else if (c === 0x3e) s.tagState = 0;
    else if (s.tagState === 1) s.tagState = c === 0x2f || c === 0x21 ? 2 : 0;
    this.codeMarks(c);
    if (c < 128) this.token(TK_PUNCT, '', off, off + 1, c);
    else this.token(TK_PUNCT, len === 1 ? String.fromCharCode(c) : String.fromCodePoint(c), off, off + len, -1);
    s.prevCode = c;
  }

  private text(from: number, to: number): string {
    if (from >= this.dBase) return this.dText.slice(from - this.dBase, to - this.dBase);
    return this.store.slice(from, to);
  }

  /** The pending word is code, markup or an address: in a code block or span, a tag or a URL. */
  private inCode(): boolean {
    const s = this.s;
    return s.fence || s.inlineCode || s.wordInTag || s.url === 3 || s.comment >= 4;
  }

  /**
   * What a punctuation char says about code and markup: code fences and inline code spans
   * (backticks), HTML comments, the "://" that starts a URL and the bracket or quote that ends
   * it; and the full stops of scripts written without spaces, which end a sentence of prose.
   */
  private codeMarks(c: number): void {
    const s = this.s;
    if (c === 0x60) {
      if (s.lineTicks >= 0) {
        // a line opening with three backticks opens or closes a code block
        if (++s.lineTicks === 3) {
          s.fence = !s.fence;
          s.inlineCode = false;
        }
      } else if (!s.fence) s.inlineCode = !s.inlineCode;
      return;
    }
    this.commentMarks(c);
    // full stops of scripts written without spaces end a sentence by themselves
    if ((c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0x0964) && !s.fence && !s.inlineCode) this.cur.proseEnds++;
    if (s.url === 3) {
      // inside a URL until a space (see char) or what closes a link: ) ] > " ' <
      if (c === 0x29 || c === 0x5d || c === 0x3e || c === 0x22 || c === 0x27 || c === 0x3c) s.url = 0;
    } else if (c === 0x3a) s.url = 1;
    else if (c === 0x2f && s.url > 0) s.url++;
    else s.url = 0;
  }

  /** "<!--" opens an HTML comment (outside code blocks) and "-->" closes it, or 4 KB later (an unclosed one). */
  private commentMarks(c: number): void {
    const s = this.s;
    if (s.comment >= 4) {
      if (c === 0x2d) s.comment = s.comment === 4 ? 5 : 6;
      else if ((c === 0x3e && s.comment === 6) || s.pos - s.commentStart > MAX_COMMENT) s.comment = 0;
      else s.comment = 4;
    } else if (c === 0x3c) s.comment = s.fence ? 0 : 1;
    else if (c === 0x21 && s.comment === 1) s.comment = 2;
    else if (c === 0x2d && (s.comment === 2 || s.comment === 3)) {
      if (++s.comment === 4) s.commentStart = s.pos;
    } else s.comment = 0;
  }

  /** The backticks that opened a line were one or two: inline code marks after all. */
  private endLineTicks(): void {
    const s = this.s;
    // the count's parity says whether a span is left open
    if (s.lineTicks > 0 && s.lineTicks < 3 && !s.fence && s.lineTicks % 2 === 1) s.inlineCode = !s.inlineCode;
    s.lineTicks = -1;
  }

  private finishWhitespace(): void {
    const s = this.s;
    for (const d of this.whitespaceSinks) d.whitespace(s.wsRunStart, s.wsRun);
    s.wsRun = 0;
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
    const code = this.inCode();
    s.lastWordEnd = end;
    s.lastWordProse = !code;
    if (latin > 0) {
      cur.letters += latin;
      cur.latinLetters += latin;
      cur.scripts[SC_LATIN]! += latin;
      if (code) cur.codeLatin += latin;
    }
    if (s.wordLatin > 0) {
      cur.allLatin += latin;
      cur.allVowels += vowels;
      if (s.wordUppers < s.wordLatin) cur.mixedUpper += s.wordUppers;
      if ((s.wordDigits > 0 && !HEX.test(key || this.text(start, end))) || s.wordFlips >= 2) cur.garbled++;
    }
    if (s.wordLatin > 0 && s.wordDigits === 0 && s.wordOther === 0 && !s.wordInTag) {
      cur.latinWords++;
      cur.pureLatinLetters += latin;
      cur.vowels += vowels;
      if (s.wordLatin >= GLUED) cur.gluedLetters += latin;
    }
    this.token(s.wordInTag ? TK_MARK : TK_WORD, key, start, end, -1, known, hashed ? s.wordHash : 0, hashed ? len : -1, s.wordNumeric);
  }

  /**
   * One token. `ascii` >= 0: an ASCII punctuation char (interned by table, key unused).
   * Words come with their id when already known (`known` >= 0); a new hashed word
   * (`hashLen` >= 0) is added to the hash table, any other new token to the string map.
   */
  private token(
    kind: number,
    key: string,
    start: number,
    end: number,
    ascii: number,
    known = -2,
    hash = 0,
    hashLen = -1,
    numeric = false,
  ): void {
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
        this.fw[id] = kind !== TK_SOLO && kind !== TK_PUNCT && key.length <= FW_MAX_LEN && FUNCTION_WORDS.has(key) ? 1 : 0;
      }
    }
    const isWord = kind !== TK_PUNCT;
    let flags = (s.afterNl ? TF_AFTER_NL : 0) | (isNew ? TF_NEW : 0);
    s.afterNl = false;
    if (isWord) {
      flags |= TF_WORDISH;
      s.words++;
      this.cur.words++;
      if (isNew) s.distinctWords++;
      if (isNew ? kind !== TK_SOLO && key.length <= FW_MAX_LEN && FUNCTION_WORDS.has(key) : this.fw[id] === 1) this.cur.fw++;
      if (kind !== TK_MARK) flags |= TF_CONTENT;
      if (numeric) flags |= TF_NUMERIC;
    }
    s.chunkHash = (Math.imul(s.chunkHash ^ id, 0x01000193) + 0x3c6ef372) | 0;
    s.chunkToks++;
    // stutter is words doubled ("I I think think"); "0, 0, 0," in data and CSS is not
    if (isWord && !numeric) s.chunkHasWord = true;
    const n = s.nTok++;
    const sinks = this.tokenSinks;
    for (let i = 0; i < sinks.length; i++) sinks[i]!.token(n, id, kind, start, end, flags);
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
    if (nlOff - start <= 0) return;
    const text = this.text(start, nlOff);
    for (const d of this.lineSinks) d.line(start, nlOff, text);
  }

  private finishBlock(off: number): void {
    const s = this.s;
    const b = this.cur;
    b.chars = off - s.blockStart;
    // a very long word (glued words) still pending: count its letters in the block they fell in
    if (s.wordStart >= 0 && s.wordLatin >= GLUED && s.wordDigits === 0 && s.wordOther === 0) {
      const add = s.wordLatin - s.wordAccounted;
      b.letters += add;
      b.latinLetters += add;
      b.scripts[SC_LATIN]! += add;
      if (this.inCode()) b.codeLatin += add;
      b.pureLatinLetters += add;
      b.gluedLetters += add;
      b.allLatin += add;
      const v = s.wordVowels - s.wordVowelsAccounted;
      b.vowels += v;
      b.allVowels += v;
      s.wordAccounted = s.wordLatin;
      s.wordVowelsAccounted = s.wordVowels;
    }
    this.detectors.windows.block(b, s.blockStart, false);
    this.cur = newBlock();
    s.blockStart = off;
    s.blockByte = off + s.extraBytes;
  }

  /** Every detector's figures for the text so far (as if it ended here), or those `only` picks; leaves every state as it was. */
  figures(only?: (d: Detector, view: TextView) => boolean): { base: BaseFigures; detectors: Figures } {
    const saved = { ...this.s };
    const savedCur = copyBlock(this.cur);
    const engineDetectors = this.snapshotted;
    for (const d of engineDetectors) d.save();
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
      if (s.wsRun > 0) this.finishWhitespace();
      if (s.pos > s.lineStart) this.finishLine(s.pos);
      this.cur.chars = s.pos - s.blockStart;
      if (this.cur.chars > 0) this.detectors.windows.block(this.cur, s.blockStart, true);
      for (const d of engineDetectors) d.flush?.(s.pos);
      const figures = {} as Record<string, object>;
      for (const [name, d] of this.named) if (!only || only(d, this.view)) figures[name] = d.figures(this.view);
      const base: BaseFigures = {
        chars: s.pos,
        bytes: s.pos + s.extraBytes,
        words: s.words,
        distinctWords: s.distinctWords,
        punctChars: s.punctChars,
      };
      return { base, detectors: figures as Figures };
    } finally {
      this.spec = false;
      for (const d of engineDetectors) d.restore();
      this.s = saved;
      this.cur = savedCur;
    }
  }

  /** Every detector's findings, in registry order (those whose figures are given). */
  judge(figures: Partial<Figures>, context: JudgeContext): Finding[] {
    const out: Finding[] = [];
    for (const [name, d] of this.named) {
      const f = figures[name];
      if (f) out.push(...d.judge(f, context));
    }
    return out;
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
  ASCII[c] =
    k === CH_SPACE ? A_SPACE : k === CH_PUNCT ? A_PUNCT : c >= 0x41 && c <= 0x5a ? A_UPPER : c >= 0x61 && c <= 0x7a ? A_LOWER : A_DIGIT;
  VOWEL[c] = isLatinVowel(c) ? 1 : 0;
}
const HEX = /^[0-9a-f]+$/i;
const WORD_SEED = 0x811c9dc5 | 0;
/** ASCII lower-casing table for word hashes. */
const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) LOWER[c] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
const FW_MAX_LEN = Math.max(...[...FUNCTION_WORDS].map((w) => w.length));

function asciiClass(c: number): number {
  if (c <= 0x20) return c === 0x20 || (c >= 9 && c <= 13) ? CH_SPACE : CH_PUNCT;
  if (c >= 0x30 && c <= 0x39) return CH_WORD;
  if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) return CH_WORD;
  if (c === 0x5f) return CH_WORD;
  return CH_PUNCT;
}
