/**
 * The analyzer's one pass over the chars: splits the text into tokens (words, single letters
 * of scripts written without spaces, single punctuation chars), interns each token by a hash
 * of its case-folded chars, and records whitespace runs. Work per char is O(1) and nothing
 * looks ahead, so a text pushed in any deltas ends in the same tokens (the streaming
 * contract); every detector reads the tokens afterwards. The common cases (an ASCII word the
 * table knows, an ASCII punctuation char, the one space after either, a run of ASCII whitespace)
 * are written out in the scan, with no call per token; a text pushed one char at a time takes the
 * general path for its words and the spaces after them, which is how the tests compare the two.
 */
import * as charClass from '../charClass.js';
import { TextStore } from '../textStore.js';
import { isReferenceChar, isWhitespaceReference, MAX_REFERENCE } from './charReference.js';
import { ownUtf16Units, utf16Units } from './utf16Units.js';
import { WordTable } from '../wordTable.js';
import * as asciiClass from './asciiClass.js';
import { FW_MAX, isFunctionWord } from './functionWordKey.js';
import * as markup from './markup.js';
import type { MarkupState } from './markup.js';
import * as tokens from './tokens.js';
import { SpaceRuns, TokenBuffer } from './tokens.js';

// Module-level copies of what the scan reads per char or per token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not (about a tenth of
// the scan's time on a megabyte of mixed text).
const { CH_PUNCT, CH_SOLO, CH_SPACE, CH_WORD, SC_LATIN, SC_NONE, astralInfo, classOf, scriptOfCode } = charClass;
const {
  A_DIGIT,
  A_SPACE,
  A_UNDER,
  A_UPPER,
  A_WORD,
  ASCII,
  isDigit,
  lowerOf,
  SEPARATOR,
  W_DIGIT,
  W_KINDS,
  W_LOWER,
  W_UPPER,
  WORD_CHAR,
  WORD_SEED,
} = asciiClass;
const { inCode, markupPunct, markupSpace, markupWord, newMarkup } = markup;
const {
  F_BLANK,
  F_CODE,
  F_FENCE,
  F_FUNC,
  F_GAP,
  F_LINE,
  F_MIXSCRIPT,
  F_NEW,
  F_NUM,
  F_SPACE,
  K_MARK,
  K_PUNCT,
  K_SOLO,
  K_WORD,
  SCRIPT_SHIFT,
} = tokens;

const ALNUM = 1 << 16;
const LOWER_ONLY = 1 << 17;
/** Letters and digits mixed in one word ("x9f2", "mp3"). */
export const F_ALNUM = ALNUM;
/** A word of letters only, all lower case ("brazilcanada"): no capitals, digits or underscores. */
export const F_LOWER = LOWER_ONLY;
/** Ids below this are ASCII punctuation chars (id = char code). */
const FIRST_ID = 128;
/** Words longer than this are keyed by their first chars plus their length. */
const MAX_KEY = 64;

interface State {
  pos: number;
  pendingHigh: number;
  /** A character reference being read (`&` and what followed it, not yet tokenized; '' when none): of whitespace, it is whitespace. */
  ref: string;
  /** A '.', ',' or ':' after the digits of a number, held until the next char says whether the number goes on ("2009.06.11", "1,000", "12:30"); -1 when none. */
  sep: number;
  /** Flags the next token takes from the whitespace before it. */
  before: number;
  wsStart: number;
  wsLen: number;
  // the pending word
  wStart: number;
  wHash: number;
  wDigits: number;
  wLetters: number;
  wUppers: number;
  wScripts: number;
  wFirstDigit: boolean;
  wNonAscii: boolean;
  wTag: boolean;
  /** F_CODE and F_FENCE as the word started. */
  wCode: number;
  nextId: number;
  m: MarkupState;
}

/**
 * Tokens to make room for in a text of `chars` chars: about one token in 3-4 chars of prose, more
 * in code and markup, so room for one in 3 keeps a mixed text from growing the buffer (growing
 * copies it: a 10 MB text capped at 1M tokens grew twice, 2% of its time and more garbage than
 * room made at once; the input of `analyze` is bounded, and a stream starts small and doubles).
 */
export function tokenRoom(chars: number): number {
  return Math.ceil(chars / 3);
}

/** The code flags of a token that starts here: F_CODE inside code, markup or an address, and F_FENCE too inside a fenced block. */
function codeFlags(m: MarkupState): number {
  return inCode(m) ? (m.fence ? F_CODE | F_FENCE : F_CODE) : 0;
}

export class Tokenizer {
  readonly store = new TextStore();
  readonly tokens: TokenBuffer;
  readonly spaces = new SpaceRuns();
  /** Per token id: F_FUNC when it is a function word (set when first seen). */
  idFlags = new Int32Array(256);
  /**
   * UTF-8 bytes beyond one per UTF-16 unit of the text tokenized (a char outside ASCII takes 2-4
   * bytes for its 1-2 units): the scan counts only these, as every char it reads advances `pos`.
   */
  private extraBytes = 0;
  /** True once a char that only a broken decode leaves was seen (U+FFFD, the unknown-token glyph U+2047, a control other than whitespace): the detector that counts them reads the text only then. */
  oddSeen = false;
  /** True once a char that only special tokens and tokenizer space markers hold was seen (U+2581, U+0120, U+010A, U+FF5C). */
  markSeen = false;
  private readonly words: WordTable;
  /** ASCII punctuation ids are fixed (the char code); 1 once each was seen (not written by a snapshot). */
  private readonly asciiSeen = new Uint8Array(128);
  private s: State;
  private spec = false;
  /** True while the chars of a reference that is none are tokenized: its '&' opens none again. */
  private replaying = false;

  constructor(expectedChars = 0, tokens?: TokenBuffer) {
    this.tokens = tokens ?? new TokenBuffer(tokenRoom(expectedChars));
    this.words = new WordTable(expectedChars);
    this.s = {
      pos: 0,
      pendingHigh: -1,
      ref: '',
      sep: -1,
      before: 0,
      wsStart: 0,
      wsLen: 0,
      wStart: -1,
      wHash: WORD_SEED,
      wDigits: 0,
      wLetters: 0,
      wUppers: 0,
      wScripts: 0,
      wFirstDigit: false,
      wNonAscii: false,
      wTag: false,
      wCode: 0,
      nextId: FIRST_ID,
      m: newMarkup(),
    };
  }

  /** UTF-8 bytes of the text tokenized. */
  get bytes(): number {
    return this.s.pos + this.extraBytes;
  }

  get length(): number {
    return this.store.size;
  }

  /** Token ids handed out so far (ids are below this). */
  get idCount(): number {
    return this.s.nextId;
  }

  slice(from: number, to: number): string {
    return this.store.slice(from, to);
  }

  push(delta: string): void {
    if (delta.length === 0) return;
    this.store.append(delta);
    const s = this.s;
    let from = 0;
    if (s.pendingHigh >= 0) {
      const hi = s.pendingHigh;
      s.pendingHigh = -1;
      const lo = delta.charCodeAt(0);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        this.astral(((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000);
        from = 1;
      } else this.other(hi, CH_PUNCT, SC_NONE, 1);
    }
    this.scan(delta, from);
  }

  /**
   * Runs `read` on the tokens as if the text ended here (the pending word and whitespace
   * finished), then puts everything back: the tokenizer goes on as if nothing happened.
   */
  snapshot<T>(read: () => T): T {
    const saved = { ...this.s, m: { ...this.s.m } };
    const n = this.tokens.n;
    const totals = [this.spaces.n, this.spaces.total, this.extraBytes];
    this.spec = true;
    try {
      const s = this.s;
      if (s.ref !== '') this.replayReference();
      if (s.pendingHigh >= 0) this.other(s.pendingHigh, CH_PUNCT, SC_NONE, 1);
      if (s.sep >= 0) this.endNumber();
      if (s.wStart >= 0) this.finishWord();
      if (s.wsLen > 0) this.spaces.push(s.wsStart, s.wsLen);
      return read();
    } finally {
      this.spec = false;
      this.s = saved;
      this.tokens.n = n;
      this.spaces.n = totals[0]!;
      this.spaces.total = totals[1]!;
      this.extraBytes = totals[2]!;
    }
  }

  private scan(str: string, from: number): void {
    const n = str.length;
    const s = this.s;
    // its units: a reference replayed inside a scan reads its own, the scan's being still read
    const units = this.replaying ? ownUtf16Units(str) : utf16Units(str);
    for (let i = from; i < n; i++) {
      const c = units[i]!;
      if (s.ref !== '' && this.reference(c)) continue;
      if (s.sep >= 0) {
        if (c >= 0x30 && c <= 0x39) {
          // the number goes on past its separator
          s.wHash = Math.imul(s.wHash ^ s.sep, 0x01000193);
          s.sep = -1;
          s.pos++;
        } else this.endNumber();
      }
      if (c < 128) {
        const a = ASCII[c]!;
        if (a >= A_WORD) {
          // letters and digits of a word: a tight loop to the end of the word
          const fresh = s.wStart < 0;
          let j = i;
          let h = fresh ? WORD_SEED : s.wHash;
          // which kinds of char the word has (W_* bits): what the flags ask, read from one table with the char's lower case
          let kinds = 0;
          while (j < n) {
            const cj = units[j]!;
            if (cj >= 128) break;
            const w = WORD_CHAR[cj]!;
            if (w === 0) break;
            h = Math.imul(h ^ (w >>> 8), 0x01000193);
            kinds |= w;
            j++;
          }
          const digits = kinds & W_DIGIT;
          const letters = kinds & (W_LOWER | W_UPPER);
          if (fresh && j < n) {
            // a word that starts and ends in this delta with ASCII chars only (most words) is a
            // token at once, its kinds kept in a local; one followed by a non-ASCII char (it may go on)
            // or a number followed by a separator (it may go on too) takes the general path
            const next = units[j]!;
            if (next < 128 && !(SEPARATOR[next] === 1 && letters === 0 && digits !== 0)) {
              // startWord and finishWord in one, written out here: a call per word costs more than the rest
              const len = j - i;
              if (s.wsLen > 0) {
                this.spaces.push(s.wsStart, s.wsLen);
                s.wsLen = 0;
              }
              const m = s.m;
              const pos = s.pos;
              markupWord(m, pos);
              let flags = codeFlags(m);
              if (digits !== 0 && letters !== 0) flags |= ALNUM;
              if (a === A_DIGIT) flags |= F_NUM;
              // lower-case letters alone: no capital, digit or underscore
              if ((kinds & W_KINDS) === W_LOWER) flags |= LOWER_ONLY;
              if (letters !== 0) flags |= SC_LATIN << SCRIPT_SHIFT;
              const key = len <= MAX_KEY ? h : Math.imul(h ^ len, 0x01000193);
              const keyLen = len <= MAX_KEY ? len : MAX_KEY + 1;
              const kind = m.tag === 2 ? K_MARK : K_WORD;
              const id = this.words.get(key, keyLen);
              if (id >= 0) {
                this.tokens.push(pos, pos + len, id, kind | flags | this.idFlags[id]! | s.before);
                s.before = 0;
              } else {
                // a new word: its id, and whether it is a function word (read from the text)
                s.wNonAscii = false;
                this.token(kind, key, -2 - keyLen, pos, pos + len, flags);
              }
              if (next === 0x20) {
                // one space after it, as `space` takes it: of the markup's state only an address ends
                // (markupWord left the rest as a space leaves it)
                s.wsStart = pos + len;
                s.wsLen = 1;
                s.before = F_SPACE;
                m.url = 0;
                s.pos = pos + len + 1;
                i = j;
                continue;
              }
              s.pos = pos + len;
              i = j - 1;
              continue;
            }
          }
          if (fresh) this.startWord(a === A_DIGIT);
          s.wHash = h;
          // a word going on past this delta or past ASCII (rare): its chars counted for the general path
          for (let k = i; k < j; k++) {
            const ak = ASCII[units[k]!]!;
            if (ak === A_DIGIT) s.wDigits++;
            else if (ak !== A_UNDER) {
              s.wLetters++;
              if (ak === A_UPPER) s.wUppers++;
            }
          }
          if (letters !== 0) s.wScripts |= 1 << SC_LATIN;
          s.pos += j - i;
          i = j - 1;
          continue;
        }
        if (s.wStart >= 0) {
          if (SEPARATOR[c] === 1 && s.wLetters === 0 && s.wDigits > 0) {
            s.sep = c;
            continue;
          }
          this.finishWord();
        }
        if (c === 0x26 && !this.replaying) {
          // '&' may open a reference of whitespace: held until its ';' says
          s.ref = '&';
          continue;
        }
        if (a === A_SPACE) {
          // a run of ASCII whitespace at once: what it leaves (flags, markup state) depends only
          // on its length and its line breaks
          let j = i + 1;
          let breaks = c === 10 ? 1 : 0;
          while (j < n) {
            const cj = units[j]!;
            if (cj >= 128 || ASCII[cj] !== A_SPACE) break;
            if (cj === 10) breaks++;
            j++;
          }
          this.spaceRun(j - i, breaks, c === 9);
          i = j - 1;
          continue;
        }
        // punct(c, c, 1) written out for an ASCII char, whose id is its code
        if (c < 0x20 || c === 0x7f) this.oddSeen = true;
        if (s.wsLen > 0) {
          this.spaces.push(s.wsStart, s.wsLen);
          s.wsLen = 0;
        }
        const m = s.m;
        const pos = s.pos;
        markupPunct(m, c, pos);
        let flags = codeFlags(m) | (c === 0x60 ? F_CODE : 0);
        if (this.asciiSeen[c] === 0) {
          if (!this.spec) this.asciiSeen[c] = 1;
          flags |= F_NEW;
        }
        this.tokens.push(pos, pos + 1, c, K_PUNCT | flags | this.idFlags[c]! | s.before);
        s.before = 0;
        if (i + 1 < n && units[i + 1]! === 0x20) {
          // one space after it (", " and ". " are most punctuation), as `space` takes it
          s.wsStart = pos + 1;
          s.wsLen = 1;
          s.before = F_SPACE;
          markupSpace(m, false);
          s.pos = pos + 2;
          i++;
          continue;
        }
        s.pos = pos + 1;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff) {
        if (i + 1 < n) {
          const lo = units[i + 1]!;
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            this.astral(((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000);
            i++;
            continue;
          }
        } else if (!this.spec) {
          s.pendingHigh = c;
          return;
        }
      }
      const cls = classOf(c);
      this.other(c, cls, cls === CH_WORD || cls === CH_SOLO ? scriptOfCode(c) : SC_NONE, 1);
    }
  }

  /**
   * A char after an open reference: true when the reference took it (a char of its name, or
   * the ';' that ends a reference of whitespace, which then is whitespace); false when the
   * reference was none, its chars were tokenized as they are and `c` is still to be.
   */
  private reference(c: number): boolean {
    const s = this.s;
    if (c === 0x3b && isWhitespaceReference(s.ref.slice(1))) {
      const len = s.ref.length + 1;
      s.ref = '';
      for (let k = 0; k < len; k++) this.space(0x20);
      return true;
    }
    if (c !== 0x3b && isReferenceChar(c) && s.ref.length < MAX_REFERENCE - 1) {
      s.ref += String.fromCharCode(c);
      return true;
    }
    this.replayReference();
    return false;
  }

  /** The chars of an open reference that is none, tokenized as they are. */
  private replayReference(): void {
    const held = this.s.ref;
    this.s.ref = '';
    this.replaying = true;
    try {
      this.scan(held, 0);
    } finally {
      this.replaying = false;
    }
  }

  /** The separator after a number was not followed by a digit: the number ends before it, and it is punctuation. */
  private endNumber(): void {
    const s = this.s;
    const c = s.sep;
    s.sep = -1;
    this.finishWord();
    this.punct(c, c, 1);
  }

  private astral(cp: number): void {
    const info = astralInfo(cp);
    this.other(cp, info >> 4, info & 15, 2);
  }

  /** A char outside ASCII (or an astral code point, len 2). */
  private other(c: number, cls: number, script: number, len: number): void {
    const s = this.s;
    if (c <= 0x9f || c === 0xfffd || c === 0x2047) this.oddSeen = true;
    else if (c === 0x2581 || c === 0x120 || c === 0x10a || c === 0xff5c) this.markSeen = true;
    this.extraBytes += len === 2 ? 2 : c < 0x800 ? 1 : 2;
    if (cls === CH_WORD) {
      if (s.wStart < 0) this.startWord(script === SC_NONE && isDigit(c));
      s.wNonAscii = true;
      const lower = lowerOf(c);
      s.wHash = Math.imul(s.wHash ^ lower, 0x01000193);
      if (script === SC_NONE) s.wDigits++;
      else {
        s.wLetters++;
        s.wScripts |= 1 << script;
        if (lower !== c) s.wUppers++;
      }
      s.pos += len;
      return;
    }
    if (s.wStart >= 0) this.finishWord();
    if (cls === CH_SPACE) {
      this.space(c);
      s.pos += len - 1;
      return;
    }
    if (cls === CH_SOLO) {
      this.endSpace();
      markupWord(s.m, s.pos);
      this.token(K_SOLO, c, -1, s.pos, s.pos + len, (script << SCRIPT_SHIFT) | codeFlags(s.m));
      s.pos += len;
      return;
    }
    this.punct(c, -1, len);
  }

  private space(c: number): void {
    const s = this.s;
    if (s.wsLen === 0) s.wsStart = s.pos;
    s.wsLen++;
    s.before |= s.wsLen > 1 || c === 9 ? F_SPACE | F_GAP : F_SPACE;
    const nl = c === 10;
    if (nl) {
      s.before |= s.before & F_LINE ? F_BLANK : F_LINE;
    }
    markupSpace(s.m, nl);
    s.pos++;
  }

  /**
   * `len` whitespace chars of which `breaks` are '\n' (`tab`: the first is a tab): the same as `space` once per char (the
   * markup's state after one whitespace char is left as it is by more, but for a line break).
   */
  private spaceRun(len: number, breaks: number, tab: boolean): void {
    const s = this.s;
    if (s.wsLen === 0) s.wsStart = s.pos;
    s.wsLen += len;
    let before = s.before | (s.wsLen > 1 || tab ? F_SPACE | F_GAP : F_SPACE);
    if (breaks > 0) {
      before |= before & F_LINE ? F_BLANK : F_LINE;
      if (breaks > 1) before |= F_BLANK;
    }
    s.before = before;
    markupSpace(s.m, breaks > 0);
    s.pos += len;
  }

  private endSpace(): void {
    const s = this.s;
    if (s.wsLen > 0) {
      this.spaces.push(s.wsStart, s.wsLen);
      s.wsLen = 0;
    }
  }

  /** A punctuation char: `ascii` is its code when ASCII (its id), else -1. */
  private punct(c: number, ascii: number, len: number): void {
    const s = this.s;
    if (c < 0x20 || c === 0x7f) this.oddSeen = true;
    this.endSpace();
    markupPunct(s.m, c, s.pos);
    const code = codeFlags(s.m) | (c === 0x60 ? F_CODE : 0);
    this.token(K_PUNCT, ascii >= 0 ? -1 : c, ascii, s.pos, s.pos + len, code);
    s.pos += len;
  }

  private startWord(digit: boolean): void {
    const s = this.s;
    this.endSpace();
    markupWord(s.m, s.pos);
    s.wStart = s.pos;
    s.wHash = WORD_SEED;
    s.wDigits = 0;
    s.wLetters = 0;
    s.wUppers = 0;
    s.wScripts = 0;
    s.wFirstDigit = digit;
    s.wNonAscii = false;
    s.wTag = s.m.tag === 2;
    s.wCode = codeFlags(s.m);
  }

  private finishWord(): void {
    const s = this.s;
    const start = s.wStart;
    const end = s.pos;
    s.wStart = -1;
    const len = end - start;
    let flags = s.wCode;
    if (s.wDigits > 0) flags |= s.wLetters > 0 ? ALNUM : 0;
    if (s.wFirstDigit) flags |= F_NUM;
    if (s.wUppers === 0 && s.wDigits === 0 && s.wLetters === end - start) flags |= LOWER_ONLY;
    const scripts = s.wScripts;
    let script = SC_NONE;
    if (scripts !== 0) {
      script = 31 - Math.clz32(scripts);
      if ((scripts & (scripts - 1)) !== 0) flags |= F_MIXSCRIPT;
    }
    const key = len <= MAX_KEY ? s.wHash : Math.imul(s.wHash ^ len, 0x01000193);
    this.token(s.wTag ? K_MARK : K_WORD, key, -2 - Math.min(len, MAX_KEY + 1), start, end, flags | (script << SCRIPT_SHIFT));
  }

  /**
   * One token. `ascii` >= 0: an ASCII punctuation char (its id); -1: a non-ASCII char
   * keyed by its code point `key`; <= -2: a word keyed by hash `key` and length -2 - ascii.
   */
  private token(kind: number, key: number, ascii: number, start: number, end: number, flags: number): void {
    const s = this.s;
    let id: number;
    if (ascii >= 0) {
      id = ascii;
      if (this.asciiSeen[id] === 0) {
        if (!this.spec) this.asciiSeen[id] = 1;
        flags |= F_NEW;
      }
    } else {
      const len = ascii === -1 ? 0 : -2 - ascii;
      id = this.words.get(key, len);
      if (id < 0) {
        id = s.nextId++;
        if (!this.spec) this.words.set(key, len, id);
        if (id >= this.idFlags.length) {
          const grown = new Int32Array(this.idFlags.length * 2);
          grown.set(this.idFlags);
          this.idFlags = grown;
        }
        this.idFlags[id] = kind === K_WORD && len <= FW_MAX && isFunctionWord(key, len, !s.wNonAscii, this.store, start, end) ? F_FUNC : 0;
        flags |= F_NEW;
      }
    }
    flags |= this.idFlags[id]! | s.before;
    s.before = 0;
    this.tokens.push(start, end, id, kind | flags);
  }
}
