/**
 * Garble: output that is not language and repeats nothing. A broken quantization, a wrong
 * chat template, a bad draft model in speculative decoding or a broken tokenizer does not
 * loop: it emits tokens that form no words or sentences, often as a SHORT answer (20-500
 * chars) that the 768-byte window rules never get to judge. Each signal is something a
 * working model does not write, and each finding says which one it saw:
 *
 * - odd chars (any length): U+FFFD glued to a letter or to another U+FFFD (a multi-byte char
 *   split by a broken byte-level decode; a text that talks about U+FFFD shows one on its
 *   own), controls other than tab/newline/CR, unpaired surrogates, mojibake pairs ("Ã©").
 * - special tokens (any length): template and vocabulary markers in the content
 *   (`<|im_start|>`, `<｜end▁of▁sentence｜>`, `[PAD]`, `<unk>`, `<0x0A>`, `[INST]`, `▁word`,
 *   `Ġword`). They belong to the serving stack, never to the answer: in the content they mean
 *   the template or the detokenizer is wrong. Mentions in code (fenced blocks, `inline`) do
 *   not count, nor an end-of-turn marker that ends the text (a stop token left unstripped).
 * - gibberish from words (whole texts up to garbleShortMaxChars, else the last 1 KB): words
 *   mixing scripts that always write words apart ("тратплH"), long lowercase words repeating
 *   a fragment that is no syllable or comes three times ("llmllm…", "…imersimers…imers…"),
 *   texts made of 25+ letter words (spaces lost). A strong sign or two weak ones fail.
 * - word salad: the text (or its last 1 KB) ends in 8+ words with no function word and
 *   hardly any punctuation, capitalised words mid-clause mixed with lower-case ones: no
 *   language writes a clause like that, and lists, titles, names, code and data (the healthy
 *   texts without function words) are separated, consistently cased or full of symbols.
 * - script switch (whole short texts): it opens in one script for a sentence, then writes
 *   nearly all the rest in another (English → Chinese), unannounced (an answer giving a
 *   translation or an example that was asked for names it: "in Japanese", "translation").
 *   Long texts are the window rules' (they know how the text opened).
 *
 * State: push() scans the stream for the token-level signals with a small carry (the chars a
 * token needs to be recognised), in batches, so any split gives the same counts and memory is
 * bounded; figures() finishes that scan on a copy and reads at most SHORT_LIMIT chars: the
 * whole text while it is short, else its last TAIL_CHARS.
 */
import { finding, type Finding } from '../finding.js';
import { FUNCTION_WORDS } from '../functionWords.js';
import {
  CH_SOLO,
  CH_SPACE,
  CH_WORD,
  SC_CJK,
  SC_GREEK,
  SC_HANGUL,
  SC_LATIN,
  SC_NONE,
  SC_OTHER,
  SC_THAI,
  SCRIPT_COUNT,
  SCRIPT_NAMES,
  astralInfo,
  classOf,
  scriptOfCode,
} from '../charClass.js';
import type { TextDetector, JudgeContext, TextView } from './detector.js';

export interface GarbleThresholds {
  /**
   * Texts up to this many chars get every rule on the whole text (gibberish, word salad,
   * script switch, odd chars counted over the whole text). The window rules judge from about
   * 600 chars (one 768-byte window) and need two windows in a row to fail, so below about
   * 2 KB garble went unjudged. At most SHORT_LIMIT (2000). Quiet on 72,000 healthy pieces of
   * 20-2000 chars (answers, corpus texts, files of this machine) but for 4 control chars in
   * a test of URL encoding.
   */
  garbleShortMaxChars: number;
  /**
   * 1: longer texts get the word rules (gibberish from words, word salad) on their last
   * TAIL_CHARS (1 KB), as a collapse into garble runs to the end of the output; 0: they do
   * not. Quiet on the tails of 1,800 healthy files of this machine and of every healthy text
   * of both corpora.
   */
  garbleTailRules: number;
  /**
   * Odd chars (U+FFFD mid-word, controls, unpaired surrogates, mojibake pairs) that fail a
   * short text; fewer warn. A model never means them; a broken decode puts one in every
   * non-ASCII word (d-015: 7 in 470 chars). Healthy files of this machine have at most 4 in
   * a whole file (tests of URL encoding).
   */
  garbleOddCharsFail: number;
  /**
   * The same odd chars within 512 chars of each other that fail a text of any length (the
   * window rule needs 3% of a 768-byte window, about 23; healthy files reach 4).
   */
  garbleOddBurstFail: number;
  /**
   * Special tokens outside code that fail, not counting an end-of-turn marker that ends the
   * text. A model explaining templates puts them in code; a wrong template leaks them turn
   * after turn (an answer, `<|im_end|>`, `<|im_start|>user`, an invented question...).
   * Healthy files of this machine have at most 1 outside code.
   */
  garbleSpecialTokensFail: number;
  /** Special tokens (and space markers) outside code that warn: one may be a mention in prose. */
  garbleSpecialTokensWarn: number;
  /**
   * Pad/unk/byte/reserved tokens that fail when spliced into the text (non-space on both
   * sides, no quote or bracket) or next to another token: no working model samples a pad
   * token, and nobody mentions one glued into a word.
   */
  garbleBrokenTokensFail: number;
  /** SentencePiece or byte-BPE space markers glued to words ("▁the▁cat", "theĠcat") that fail; one may be a mention. */
  garbleSpaceMarkersFail: number;
  /**
   * Share of the letters inside fragment-repeating words from which that sign alone fails
   * (12+ lowercase letters repeating a 3-8 letter fragment with no vowel back to back, or a
   * 4-8 letter one three times, not one unit through: "abcabcabc" is a test string, "dendenden"
   * a loop). Healthy text has none: doubled syllables ("subsubsection", "Mississippians",
   * slugs like "schemasschemas") have vowels. A decoder that drops spaces makes a third or more.
   */
  garbleGluedShare: number;
  /**
   * Words (letter runs) mixing two scripts that always write words apart (Latin+Cyrillic,
   * Cyrillic+Arabic, or 3 scripts) from which that sign alone fails. Latin or Greek glued to
   * CJK, kana, Hangul or Thai is normal ("Python을", "用Python写"), Latin with Greek too (4.7kΩ).
   */
  garbleMixedScriptWordsFail: number;
  /**
   * Word salad: the text (or its last 1 KB) ends in a run of whole clauses of at least this
   * many words (of scripts written with spaces) with at most 8% function words (none under 13
   * words): a clause of 8 words in any listed language has some...
   */
  garbleSaladMinWords: number;
  /**
   * ...at least this many words per break (punctuation or a line break next to a word):
   * lists, tables, names and keyword lines are separated, about one break per 1-3 words...
   */
  garbleSaladWordsPerBreak: number;
  /**
   * ...at least this share of its whitespace-delimited chunks are letters only: code, logs,
   * tables and data have operators, numbers, key=value and "|" between their words...
   */
  garbleSaladWordShare: number;
  /**
   * ...with a lower-case word and at least this share of words capitalised mid-clause:
   * prose capitalises a few names there (Polish or Turkish prose, whose function words are
   * not listed, reaches 0.3 in a sentence full of names), title-case headlines and name lists
   * have no lower-case words, a salad of vocabulary tokens mixes both (d-004: 0.6)...
   */
  garbleSaladCapitalShare: number;
  /** ...or this share when the run has no break at all (no punctuation, no line break: not one sentence was ended)... */
  garbleSaladCapitalShareUnbroken: number;
  /**
   * ...or words in at least this many scripts (Latin, Cyrillic, CJK...) strung together: a
   * glossary or a greeting in many languages separates them (one or two per line or item).
   */
  garbleSaladScripts: number;
  /**
   * Script switch: letters of the opening script before the switch (4-5 words: a sentence
   * started in it, not a name or a "Sure!")...
   */
  garbleSwitchHeadLetters: number;
  /**
   * ...share of the rest's letters (weighted by UTF-8 bytes, as the window rules do) in other
   * scripts: a bilingual glossary or an answer quoting foreign names keeps a third or more in
   * its own script; a model that switched writes 90%+ in the new one...
   */
  garbleSwitchShare: number;
  /** ...over at least this many UTF-8 bytes of letters (about 20 CJK chars or a short sentence). */
  garbleSwitchMinBytes: number;
}

export const GARBLE_DEFAULTS: Readonly<GarbleThresholds> = Object.freeze({
  garbleShortMaxChars: 2000,
  garbleTailRules: 1,
  garbleOddCharsFail: 3,
  garbleOddBurstFail: 8,
  garbleSpecialTokensFail: 3,
  garbleSpecialTokensWarn: 1,
  garbleBrokenTokensFail: 1,
  garbleSpaceMarkersFail: 3,
  garbleGluedShare: 0.25,
  garbleMixedScriptWordsFail: 2,
  garbleSaladMinWords: 8,
  garbleSaladWordsPerBreak: 8,
  garbleSaladWordShare: 0.9,
  garbleSaladCapitalShare: 0.4,
  garbleSaladCapitalShareUnbroken: 0.25,
  garbleSaladScripts: 3,
  garbleSwitchHeadLetters: 16,
  garbleSwitchShare: 0.75,
  garbleSwitchMinBytes: 60,
});

/** Whole-text rules read at most this many chars (bounded figures()). */
export const SHORT_LIMIT = 2000;

export interface GarbleFigures {
  /** Chars of the text. */
  chars: number;
  /** U+FFFD replacement chars. */
  replacementChars: number;
  /** ...of them next to a letter or another U+FFFD (a multi-byte char split mid-word). */
  replacementGlued: number;
  /** C0/C1 control chars other than tab, newline, CR. */
  controlChars: number;
  /** Unpaired UTF-16 surrogates. */
  loneSurrogates: number;
  /** Most odd chars (U+FFFD mid-word, controls, lone surrogates, mojibake) within 512 chars of each other (16 at most). */
  oddBurst: number;
  /** Where the first of those odd chars is (-1: none). */
  firstOddAt: number;
  /** Special tokens outside code. */
  specialTokens: number;
  /** ...of which pad/unk/byte/reserved tokens spliced into the text or next to another token. */
  brokenTokens: number;
  /** ▁ / Ġ space markers glued to a word, outside code. */
  spaceMarkers: number;
  /** Special tokens inside code spans or blocks (mentions; not judged). */
  specialTokensInCode: number;
  /** 1 when the last special token is an end-of-turn marker with only whitespace after it. */
  trailingEndToken: number;
  /** Where the first special token or marker outside code is (-1: none). */
  firstTokenAt: number;
  /** The first special token outside code, as written ('' when none). */
  firstToken: string;
  /**
   * Where the part the word figures below describe starts: 0 when they describe the whole
   * text (at most SHORT_LIMIT chars), else the start of the last TAIL_CHARS (cut at a space).
   */
  from: number;
  /** Mojibake pairs outside code: UTF-8 read as Latin-1 ("Ã©" for "é"). */
  mojibake: number;
  /** Short text or tail: letters (outside code). */
  letters: number;
  /**
   * Word-salad figures, over the run of whole clauses that ends the short text or tail (a
   * collapse runs to the end) with at most 8% function words, up to 64 chunks back: chunks
   * (words, numbers, symbols, code)...
   */
  chunks: number;
  /** ...chunks that are letters only (words of any script)... */
  letterChunks: number;
  /** ...words of scripts written with spaces, and function words among them... */
  words: number;
  functionWords: number;
  /** ...words followed or preceded by punctuation or a line break... */
  breaks: number;
  /** ...words starting lower case, and upper case without opening a sentence, clause or line... */
  lowerWords: number;
  upperWords: number;
  /** ...scripts its letter chunks are written in (by their first letter)... */
  saladScripts: number;
  /** ...and where the first of those chunks is (-1: no chunk). */
  saladAt: number;
  /** Short text or tail: letters in lowercase words that repeat a fragment of themselves (see garbleGluedShare). */
  gluedLetters: number;
  /** Short text or tail: where the first such word is (-1: none). */
  gluedAt: number;
  /** Short text or tail: the first such word ('' when none). */
  gluedWord: string;
  /** Short text or tail: words of 25+ Latin letters with no camel hump and no unit repeated through, and their letters. */
  longWords: number;
  longLetters: number;
  longAt: number;
  /** Short text or tail: letter runs mixing scripts that always write words apart. */
  mixedScriptWords: number;
  mixedScriptAt: number;
  /** Whole short text: the script it opens in, the one with most bytes among its first 16 letters ('' when no letter). */
  headScript: string;
  /** Whole short text: letters of the opening script before the switch (all of them when there is none). */
  headLetters: number;
  /** Whole short text: share of the UTF-8 bytes of letters after the switch in other scripts than the opening one. */
  switchShare: number;
  /** Whole short text: UTF-8 bytes of letters after the switch. */
  switchBytes: number;
  /**
   * Whole short text: the switch, where a letter of another script follows one of the opening
   * script after 8+ opening letters, the one after which the rest is most in other scripts (-1: none).
   */
  switchAt: number;
  /** Whole short text: 1 when the opening announces the other script (names a translation or the language). */
  switchAnnounced: number;
}

// ---------------------------------------------------------------------------------------
// Token-level scan of the stream.

/** Longest special token matched, plus room: positions are only judged with this many chars after them. */
const LOOK = 64;
/** Unscanned chars that make push() scan (figures() scans the rest on a copy). */
const BATCH = 512;
/** Chars kept before the scan position, for what precedes a hit. */
const BACK = 16;
/** Span for the odd-char burst. */
const BURST_SPAN = 512;
const BURST_RING = 16;

/** Chars the scan stops at: backtick and newline (code spans), token openers, markers, odd chars, surrogates. */
const HIT = /[`\n<[\u2581\u0120\u010a\u00c2\u00c3\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]/g;
/**
 * Angle-bracket special tokens, matched at a '<'. Encoder tokens ([CLS], [SEP], [MASK],
 * <mask>) are left out: generation does not emit them, explanations of BERT name them.
 */
const ANGLE =
  /<(?:\|([A-Za-z][A-Za-z0-9_.:\-\u2581]{0,47})\||\uff5c([^\uff5c<>\n]{1,48})\uff5c|(\/?)(s|pad|unk|eos|bos|eot|start_of_turn|end_of_turn|endoftext|extra_id_\d{1,3})|(0x[0-9A-Fa-f]{2})|<\/?SYS>)>/y;
/** Bracket special tokens, matched at a '['. */
const BRACKET = /\[\/?(PAD|UNK|INST)\](?!\()/y;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
/** Before a leaked byte-BPE space marker (Ġ, Ċ): a lower-case letter, digit or closing punctuation; Maltese Ġ/Ċ start words. */
const GPT_BEFORE = /[\p{Ll}\p{N}.,;:!?)]/u;
/** Chars that set off a mention: quotes and brackets. */
const QUOTE = /["'`\u2018\u2019\u201c\u201d\u00ab\u00bb()[\]{}]/;

const TK_END = 1;
const TK_BROKEN = 2;
const TK_OTHER = 3;

function tokenClass(name: string): number {
  const n = name.toLowerCase();
  if (/pad|unk|reserved|^0x/.test(n)) return TK_BROKEN;
  if (/end|^eo[st]|eot|eom/.test(n) || n === '/s') return TK_END;
  return TK_OTHER;
}

interface ScanState {
  /** Absolute offset of buf[0]. */
  base: number;
  /** Up to BACK processed chars, then the unprocessed ones. */
  buf: string;
  /** Index in buf of the first unprocessed char. */
  done: number;
  inFence: boolean;
  inInline: boolean;
  /** A '<s>' seen on this line (HTML strikethrough: its '</s>' is no token). */
  openS: boolean;
  replacement: number;
  replacementGlued: number;
  control: number;
  lone: number;
  mojibake: number;
  oddRing: number[];
  oddBurst: number;
  firstOddAt: number;
  tokens: number;
  broken: number;
  markers: number;
  inCode: number;
  firstTokenAt: number;
  firstToken: string;
  lastTokenEnd: number;
  lastTokenEndClass: boolean;
}

function newScan(): ScanState {
  return {
    base: 0,
    buf: '',
    done: 0,
    inFence: false,
    inInline: false,
    openS: false,
    replacement: 0,
    replacementGlued: 0,
    control: 0,
    lone: 0,
    mojibake: 0,
    oddRing: [],
    oddBurst: 0,
    firstOddAt: -1,
    tokens: 0,
    broken: 0,
    markers: 0,
    inCode: 0,
    firstTokenAt: -1,
    firstToken: '',
    lastTokenEnd: -1,
    lastTokenEndClass: false,
  };
}

function copyScan(s: ScanState): ScanState {
  return { ...s, oddRing: s.oddRing.slice() };
}

function odd(s: ScanState, at: number): void {
  if (s.firstOddAt < 0) s.firstOddAt = at;
  const ring = s.oddRing;
  ring.push(at);
  if (ring.length > BURST_RING) ring.shift();
  let n = 0;
  for (const p of ring) if (p > at - BURST_SPAN) n++;
  if (n > s.oddBurst) s.oddBurst = n;
}

/** Only spaces or tabs (fewer than BACK) between the previous line break (or the text start) and buf[i]. */
function atLineStart(s: ScanState, i: number): boolean {
  let j = i - 1;
  const stop = i - BACK;
  while (j > stop && j >= 0 && (s.buf[j] === ' ' || s.buf[j] === '\t')) j--;
  if (j <= stop) return false;
  if (j < 0) return s.base === 0;
  return s.buf[j] === '\n';
}

/** Whether the chars between the previous token's end and buf[i] are at most one whitespace char. */
function afterToken(s: ScanState, i: number): boolean {
  const gap = s.base + i - s.lastTokenEnd;
  if (s.lastTokenEnd < 0 || gap > 1) return false;
  return gap === 0 || /\s/.test(s.buf[i - 1]!);
}

/** Records a special token at buf[i..i+len). */
function token(s: ScanState, i: number, len: number, cls: number, text: string): void {
  const at = s.base + i;
  if (s.inFence || s.inInline) {
    s.inCode++;
    return;
  }
  const inRun = afterToken(s, i);
  s.tokens++;
  if (s.firstTokenAt < 0) {
    s.firstTokenAt = at;
    s.firstToken = text;
  }
  if (cls === TK_BROKEN) {
    const before = i > 0 ? s.buf[i - 1]! : '';
    const after = i + len < s.buf.length ? s.buf[i + len]! : '';
    const spliced = before !== '' && after !== '' && !/\s/.test(before) && !/\s/.test(after) && !QUOTE.test(before) && !QUOTE.test(after);
    // a run is judged at its second token, which is then spliced too
    if (spliced || inRun) s.broken++;
  }
  s.lastTokenEnd = at + len;
  s.lastTokenEndClass = cls === TK_END;
}

/** Judges the hit at buf[i]; returns the index to go on from. */
function hit(s: ScanState, i: number): number {
  const buf = s.buf;
  const c = buf.charCodeAt(i);
  switch (c) {
    case 0x0a:
      s.inInline = false;
      s.openS = false;
      return i + 1;
    case 0x60:
      // "```" at a line start opens or closes a block; any other backtick opens or closes a
      // span (one char at a time, so the decision never depends on how long a run goes on)
      if (buf.startsWith('```', i) && atLineStart(s, i)) {
        s.inFence = !s.inFence;
        s.inInline = false;
        return i + 3;
      }
      if (!s.inFence) s.inInline = !s.inInline;
      return i + 1;
    case 0x3c: {
      ANGLE.lastIndex = i;
      const m = ANGLE.exec(buf);
      if (!m) return i + 1;
      const len = m[0].length;
      const name = m[1] ?? m[2] ?? (m[4] !== undefined ? (m[3] ?? '') + m[4] : (m[5] ?? 'sys'));
      if (m[4] === 's') {
        // <s> and </s> are also HTML strikethrough: count </s> unless this line opened an <s>,
        // and <s> only next to another token ("</s><s>")
        if (m[3] === '') {
          if (afterToken(s, i)) token(s, i, len, TK_OTHER, m[0]);
          else s.openS = true;
          return i + len;
        }
        if (s.openS) {
          s.openS = false;
          return i + len;
        }
      }
      token(s, i, len, tokenClass(name), m[0]);
      return i + len;
    }
    case 0x5b: {
      BRACKET.lastIndex = i;
      const m = BRACKET.exec(buf);
      if (!m) return i + 1;
      token(s, i, m[0].length, tokenClass(m[1]!), m[0]);
      return i + m[0].length;
    }
    case 0x2581:
    case 0x120:
    case 0x10a: {
      const next = i + 1 < buf.length ? buf[i + 1]! : '';
      if (next === '' || !LETTER_OR_DIGIT.test(next)) return i + 1;
      if (c !== 0x2581) {
        const prev = i > 0 ? buf[i - 1]! : '';
        if (prev === '' || !GPT_BEFORE.test(prev)) return i + 1;
      }
      if (s.inFence || s.inInline) s.inCode++;
      else {
        s.markers++;
        if (s.firstTokenAt < 0) {
          s.firstTokenAt = s.base + i;
          s.firstToken = buf.slice(i, i + 12);
        }
      }
      return i + 1;
    }
    case 0xc2:
    case 0xc3: {
      // Â or Ã before a char of U+0080-U+00BF: the lead byte of a UTF-8 pair decoded as Latin-1
      const n = i + 1 < buf.length ? buf.charCodeAt(i + 1) : -1;
      if (n >= 0x80 && n <= 0xbf && !s.inFence && !s.inInline) {
        s.mojibake++;
        odd(s, s.base + i);
        return i + 2;
      }
      return i + 1;
    }
    case 0xfffd: {
      // glued to a letter or to another U+FFFD: a char broken mid-word; one on its own may be a mention
      s.replacement++;
      const prev = i > 0 ? buf[i - 1]! : '';
      const next = i + 1 < buf.length ? buf[i + 1]! : '';
      if (prev === '\ufffd' || next === '\ufffd' || (prev !== '' && LETTER.test(prev)) || (next !== '' && LETTER.test(next))) {
        s.replacementGlued++;
        odd(s, s.base + i);
      }
      return i + 1;
    }
    default:
      if (c >= 0xd800 && c <= 0xdbff) {
        const n = i + 1 < buf.length ? buf.charCodeAt(i + 1) : -1;
        if (n >= 0xdc00 && n <= 0xdfff) return i + 2;
        s.lone++;
        odd(s, s.base + i);
        return i + 1;
      }
      if (c >= 0xdc00 && c <= 0xdfff) {
        s.lone++;
        odd(s, s.base + i);
        return i + 1;
      }
      s.control++;
      odd(s, s.base + i);
      return i + 1;
  }
}

/** Scans buf from `done` up to LOOK chars before its end (to the end when final). */
function scan(s: ScanState, final: boolean): void {
  const buf = s.buf;
  const limit = final ? buf.length : buf.length - LOOK;
  let i = s.done;
  while (i < limit) {
    // the regex engine skips to the next char worth a look (test: no match object to allocate)
    HIT.lastIndex = i;
    if (!HIT.test(buf) || HIT.lastIndex - 1 >= limit) {
      i = limit;
      break;
    }
    i = hit(s, HIT.lastIndex - 1);
  }
  if (i > s.done) s.done = i;
  const cut = s.done - BACK;
  if (cut > 0) {
    s.buf = buf.slice(cut);
    s.base += cut;
    s.done -= cut;
  }
}

// ---------------------------------------------------------------------------------------
// Whole-text figures of a short text.

interface ShortFigures {
  words: number;
  chunks: number;
  saladScripts: number;
  letters: number;
  functionWords: number;
  breaks: number;
  lowerWords: number;
  upperWords: number;
  saladAt: number;
  gluedLetters: number;
  gluedAt: number;
  gluedWord: string;
  longWords: number;
  longLetters: number;
  longAt: number;
  letterChunks: number;
  mixedScriptWords: number;
  mixedScriptAt: number;
  headScript: string;
  headLetters: number;
  switchShare: number;
  switchBytes: number;
  switchAt: number;
  switchAnnounced: number;
}

const NO_SHORT: Readonly<ShortFigures> = Object.freeze({
  words: 0,
  chunks: 0,
  saladScripts: 0,
  letters: 0,
  functionWords: 0,
  breaks: 0,
  lowerWords: 0,
  upperWords: 0,
  saladAt: -1,
  gluedLetters: 0,
  gluedAt: -1,
  gluedWord: '',
  longWords: 0,
  longLetters: 0,
  longAt: -1,
  letterChunks: 0,
  mixedScriptWords: 0,
  mixedScriptAt: -1,
  headScript: '',
  headLetters: 0,
  switchShare: 0,
  switchBytes: 0,
  switchAt: -1,
  switchAnnounced: 0,
});

/**
 * Fenced code blocks and inline code spans, blanked to spaces (same length, so offsets hold).
 * A fence left open at the end counts as code only with a language tag ("```python", an
 * answer cut inside its code); a bare "```" that never closes is no evidence of code.
 */
function blankCode(text: string): string {
  if (!text.includes('`')) return text;
  const blank = (m: string): string => m.replace(/[^\n]/g, ' ');
  return text
    .replace(/^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```[^\n]*$/gm, blank)
    .replace(/^[ \t]*```[ \t]*[A-Za-z][^\n]*\n[\s\S]*$/m, blank)
    .replace(/(`+)[^`\n]+?\1/g, blank);
}

/** Script of the code unit (BMP) or code point at text[i]; SC_NONE for non-letters. */
function scriptAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) return astralInfo(cp) & 15;
    return SC_NONE;
  }
  const k = classOf(c);
  return k === CH_WORD || k === CH_SOLO ? scriptOfCode(c) : SC_NONE;
}

/** UTF-8 bytes of a letter of this script (the window rules weigh scripts by bytes). */
function scriptBytes(sc: number): number {
  if (sc === SC_LATIN) return 1;
  if (sc === SC_CJK || sc === SC_HANGUL || sc === SC_THAI || sc >= 7) return 3;
  return 2;
}

/**
 * Named scripts that write words apart with spaces: two of them in one letter run is broken
 * text. SC_OTHER (modifier letters like ʻ, letterlike symbols like K for Kelvin) is no script.
 */
function spaced(sc: number): boolean {
  return sc !== SC_NONE && sc !== SC_CJK && sc !== SC_HANGUL && sc !== SC_THAI && sc !== SC_OTHER;
}

const HEX_ONLY = /^[0-9a-f]+$/;
/** Longest listed function word: longer words need no lookup. */
const FW_MAX_LEN = Math.max(...[...FUNCTION_WORDS].map((w) => w.length));
/** Latin vowels, y included: every syllable has one. */
const VOWEL = /[aeiouyà-æè-ïò-öø-üýÿ]/;

/**
 * A long lowercase word that repeats a fragment of itself: 3-8 letters with no vowel twice
 * back to back ("llmllm": no syllable, glued abbreviations), or 4-8 letters three times
 * ("…imers…imers…imers…"), without the whole word being one fragment repeated through
 * ("abcabcabc" is a test string). Syllables doubled back to back are language
 * ("subsubsection", "Mississippi", slugs like "schemasschemas") and do not count.
 */
export function repeatsFragment(w: string): boolean {
  if (w.length < 12 || HEX_ONLY.test(w) || floodLike(w)) return false;
  if (w.length <= FRAGMENT_WINDOW) return repeatsIn(w);
  // a very long run (lost spaces over a whole text): look at overlapping windows, bounded cost
  for (let i = 0; i < w.length - 12; i += FRAGMENT_WINDOW - 16) if (repeatsIn(w.slice(i, i + FRAGMENT_WINDOW))) return true;
  return false;
}

/** Letters of a run looked at together by repeatsFragment (its cost is quadratic in them). */
const FRAGMENT_WINDOW = 64;

function repeatsIn(w: string): boolean {
  const n = w.length;
  for (let p = 3; p <= 8; p++) {
    for (let i = 0; i + 2 * p <= n; i++) {
      const f = w.slice(i, i + p);
      if (!w.startsWith(f, i + p) || VOWEL.test(f) || periodic(f)) continue;
      let end = i + 2 * p;
      while (end + p <= n && w.startsWith(f, end)) end += p;
      if ((end - i) / n < 0.8) return true;
    }
  }
  for (let p = 4; p <= 8; p++) {
    for (let i = 0; i + 3 * p <= n; i++) {
      const f = w.slice(i, i + p);
      let count = 1;
      let j = w.indexOf(f, i + p);
      while (j >= 0 && count < 3) {
        count++;
        j = w.indexOf(f, j + p);
      }
      if (count >= 3 && !periodic(f)) return true;
    }
  }
  return false;
}

/** A word that is mostly one short unit over and over ("GGGG", "dendenden"): a flood or loop, judged by the loop detectors. */
function floodLike(w: string): boolean {
  const n = w.length;
  for (let p = 1; p <= 8 && 2 * p <= n; p++) {
    let same = 0;
    for (let i = 0; i + p < n; i++) if (w.charCodeAt(i) === w.charCodeAt(i + p)) same++;
    if (same >= 0.8 * (n - p)) return true;
  }
  return false;
}

function periodic(f: string): boolean {
  for (let q = 1; q < f.length; q++) if (f.length % q === 0 && f.slice(0, q).repeat(f.length / q) === f) return true;
  return false;
}

/** Leading and trailing chars that are not letters, digits, apostrophes. */
const ALPHA = /^[\p{L}\p{M}'’-]+$/u;
/** Punctuation that breaks a clause or a list item. */
const BREAK_CHARS = ',;:.!?()[]{}|/\\<>=+*#@&"“”«»—–…。，、；：！？';
const IS_BREAK = new Uint8Array(0x10000);
for (const ch of BREAK_CHARS) IS_BREAK[ch.charCodeAt(0)] = 1;
/** Runs of lower-case Latin letters long enough to be glued words. */
const LOWER_RUN = /[a-zß-öø-ÿ]{12,}/g;
/** Runs of Latin letters of glued-words length. */
const LONG_RUN = /[A-Za-zß-öø-ÿÀ-ÖØ-Þ]{25,}/g;
const CAMEL = /[a-zß-öø-ÿ][A-ZÀ-ÖØ-Þ]/;
/**
 * Share of a short text's letters in 25+ letter words from which they are glued words: a
 * decoder that drops spaces glues the whole text; a healthy text quoting one long word
 * (German compounds, "pneumonoultramicroscopic…") keeps most of its letters in normal words.
 */
const LONG_GLUED_SHARE = 0.7;
/** Chunks that are addresses, paths, anchors or dotted names: machine-made glue. */
const ADDRESS = /[#/@=]|\w\.\w/;

/** Word and script figures of a text or tail; the script switch only for a whole text. */
function shortFigures(raw: string, whole: boolean): ShortFigures {
  const text = blankCode(raw);
  const f: ShortFigures = { ...NO_SHORT };
  wordFigures(text, f);
  scriptFigures(text, f, whole);
  return f;
}

/** Chunks at the end of the text the word-salad figures look back over (a few clauses). */
const SALAD_CHUNKS = 64;
/**
 * The salad figures describe the longest run of chunks at the end with at most this share
 * of function words (none under 13 words). Prose in the listed languages has 0.3-0.55 and a
 * function word every few words, so its run is a few words long; the window rule uses 0.08 too.
 */
const SALAD_FUNCTION_SHARE = 0.08;
/** The run stops at a break (punctuation, line break) once it has this many words: what comes before is another clause. */
const SALAD_RUN_WORDS = 8;
const K_LETTERS = 1;
const K_WORD = 2;
const K_FUNCTION = 4;
const K_BREAK = 8;
const K_LOWER = 16;
const K_UPPER = 32;
/** The chunk opens a clause: first of the text, or after punctuation or a line break. */
const K_OPENS = 64;

function isSpace(code: number): boolean {
  return code <= 0x20 ? code === 0x20 || (code >= 9 && code <= 13) : code >= 0x80 && code < 0xd800 && classOf(code) === CH_SPACE;
}

/** Whether text[from, to) (the whitespace between two chunks) has a line break. */
function newlineIn(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x0a) return true;
  return false;
}

/** A letter or digit (of any script), by the analyzer's char classes. */
function isAlnum(code: number): boolean {
  if (code >= 0xd800 && code <= 0xdfff) return true; // astral letters and emoji: let the word regex judge
  const k = classOf(code);
  return (k === CH_WORD || k === CH_SOLO) && code !== 0x5f;
}

/**
 * Glued words (fragment-repeating, 25+ letters) over the whole part; and, over its last
 * SALAD_CHUNKS chunks, words (of scripts written with spaces), function words, breaks
 * (punctuation or a line break next to a word) and the case of first letters.
 */
function wordFigures(text: string, f: ShortFigures): void {
  const starts: number[] = [];
  const ends: number[] = [];
  const len = text.length;
  for (let i = 0; i < len; ) {
    while (i < len && isSpace(text.charCodeAt(i))) i++;
    if (i >= len) break;
    const start = i;
    while (i < len && !isSpace(text.charCodeAt(i))) i++;
    starts.push(start);
    ends.push(i);
    if (i - start < 12) continue;
    const chunk = text.slice(start, i);
    if (ADDRESS.test(chunk)) continue;
    LOWER_RUN.lastIndex = 0;
    for (let g = LOWER_RUN.exec(chunk); g !== null; g = LOWER_RUN.exec(chunk)) {
      if (!repeatsFragment(g[0])) continue;
      f.gluedLetters += g[0].length;
      if (f.gluedAt < 0) {
        f.gluedAt = start + g.index;
        f.gluedWord = g[0].length > 40 ? g[0].slice(0, 40) + '…' : g[0];
      }
    }
    if (chunk.length < 25) continue;
    LONG_RUN.lastIndex = 0;
    for (let g = LONG_RUN.exec(chunk); g !== null; g = LONG_RUN.exec(chunk)) {
      if (CAMEL.test(g[0]) || HEX_ONLY.test(g[0]) || floodLike(g[0])) continue;
      f.longWords++;
      f.longLetters += g[0].length;
      if (f.longAt < 0) f.longAt = start + g.index;
    }
  }
  // kinds of the last SALAD_CHUNKS chunks
  const n = starts.length;
  const limit = Math.max(0, n - SALAD_CHUNKS);
  const kinds = new Uint8Array(n - limit);
  const scripts = new Uint8Array(n - limit);
  for (let i = limit; i < n; i++) {
    const a = starts[i]!;
    const e = ends[i]!;
    // a chunk opens a clause at the text start or after a break: punctuation ending the previous chunk, or a line break
    const opens = i === 0 || IS_BREAK[text.charCodeAt(ends[i - 1]! - 1)] === 1 || newlineIn(text, ends[i - 1]!, a);
    // a break next to it: punctuation at either end, or a line break after it
    const closes =
      IS_BREAK[text.charCodeAt(e - 1)] === 1 ||
      IS_BREAK[text.charCodeAt(a)] === 1 ||
      newlineIn(text, e, i + 1 < n ? starts[i + 1]! : text.length);
    let k = opens ? K_OPENS : 0;
    // the word without the punctuation around it
    let x = a;
    let y = e;
    while (x < y && !isAlnum(text.charCodeAt(x))) x++;
    while (y > x && !isAlnum(text.charCodeAt(y - 1)) && text.charCodeAt(y - 1) !== 0x27 && text.charCodeAt(y - 1) !== 0x2019) y--;
    if (y > x) {
      const core = text.slice(x, y);
      if (ALPHA.test(core)) {
        k |= K_LETTERS;
        scripts[i - limit] = scriptAt(core, 0);
        if (spaced(scriptAt(core, 0))) {
          k |= K_WORD;
          if (core.length <= FW_MAX_LEN && FUNCTION_WORDS.has(core.toLowerCase())) k |= K_FUNCTION;
          const first = core[0]!;
          if (first !== first.toUpperCase()) k |= K_LOWER;
          else if (first !== first.toLowerCase() && !opens) k |= K_UPPER;
          if (closes) k |= K_BREAK;
        }
      }
    }
    kinds[i - limit] = k;
  }
  // the longest run of chunks at the end with at most SALAD_FUNCTION_SHARE function words
  let from = kinds.length;
  let words = 0;
  let fw = 0;
  for (let i = kinds.length - 1; i >= 0; i--) {
    const k = kinds[i]!;
    // a sentence or line that ends before 8+ words of the run is the text before the salad
    if (k & K_BREAK && i < kinds.length - 1 && words >= SALAD_RUN_WORDS) break;
    if (k & K_WORD) words++;
    if (k & K_FUNCTION) fw++;
    if (fw <= Math.floor(SALAD_FUNCTION_SHARE * words)) from = i;
  }
  // ...that starts a clause: a run that starts right after a function word is the end of a
  // sentence (or that runs back past the chunks looked at)
  if (from > 0) while (from < kinds.length && !(kinds[from]! & K_OPENS)) from++;
  f.saladAt = from < kinds.length ? starts[limit + from]! : -1;
  let runScripts = 0;
  for (let i = from; i < kinds.length; i++) {
    const k = kinds[i]!;
    f.chunks++;
    if (k & K_LETTERS) {
      f.letterChunks++;
      runScripts |= 1 << scripts[i]!;
    }
    if (k & K_WORD) f.words++;
    if (k & K_FUNCTION) f.functionWords++;
    if (k & K_BREAK) f.breaks++;
    if (k & K_LOWER) f.lowerWords++;
    if (k & K_UPPER) f.upperWords++;
  }
  for (let sc = 1; sc < SCRIPT_COUNT; sc++) if (runScripts & (1 << sc) && sc !== SC_OTHER) f.saladScripts++;
}

/**
 * An opening that announces the other script: a translation, or the language by name. A model
 * asked for a translation or an example says so; one that drifted into another script does
 * not ("Sure, here is the answer: 这个…" is a drift).
 */
const ANNOUNCES =
  /translat|übersetz|tradu[cçz]|перев[оеё]д|\b(?:chinese|mandarin|cantonese|japanese|korean|russian|ukrainian|bulgarian|serbian|arabic|hebrew|persian|farsi|urdu|hindi|bengali|tamil|telugu|greek|thai|georgian|armenian|cyrillic|kanji|hanzi|hangul|katakana|hiragana|pinyin|chinois|japonais|coréen|russe|chinesisch|japanisch|koreanisch|russisch|chino|japonés|coreano|ruso)\b/i;

/** Opening letters that do not make an opening script ("OK", "AI", a name): under this many. */
const MIN_HEAD = 8;
/** Letters the rest needs for a switch to be measured at all. */
const MIN_REST_BYTES = 24;
/** The opening script is the one with most bytes among this many first letters (a name or a "Sure!" before a CJK answer does not make it Latin). */
const HEAD_SCAN = 16;

/**
 * Letters, words mixing scripts, and the script switch: the opening script is the one with
 * most bytes among the first letters; the switch point is the change of script after at least
 * MIN_HEAD opening letters after which the rest is most in other scripts.
 */
function scriptFigures(text: string, f: ShortFigures, whole: boolean): void {
  const n = text.length;
  // per letter: position and script (for the switch, in a whole text)
  const pos: number[] = [];
  const scr: number[] = [];
  let letters = 0;
  let runMask = 0;
  let runStart = -1;
  const endRun = (): void => {
    if (runMask !== 0) {
      let spacedCount = 0;
      let total = 0;
      for (let sc = 1; sc < SCRIPT_COUNT; sc++) {
        if (!(runMask & (1 << sc)) || sc === SC_OTHER) continue;
        total++;
        if (spaced(sc)) spacedCount++;
      }
      const latinGreek = runMask === ((1 << SC_LATIN) | (1 << SC_GREEK));
      if ((spacedCount >= 2 && !latinGreek) || total >= 3) {
        f.mixedScriptWords++;
        if (f.mixedScriptAt < 0) f.mixedScriptAt = runStart;
      }
    }
    runMask = 0;
    runStart = -1;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const sc = scriptAt(text, i);
    if (sc === SC_NONE) {
      // combining marks keep a run going; anything else ends it
      if (!(c >= 0x300 && c <= 0x36f)) endRun();
    } else {
      if (runStart < 0) runStart = i;
      runMask |= 1 << sc;
      letters++;
      if (whole) {
        pos.push(i);
        scr.push(sc);
      }
    }
    if (c >= 0xd800 && c <= 0xdbff) i++;
  }
  endRun();
  f.letters = letters;
  if (!whole || letters === 0) return;
  const headBytes = new Array<number>(SCRIPT_COUNT).fill(0);
  for (let k = 0; k < Math.min(letters, HEAD_SCAN); k++) headBytes[scr[k]!]! += scriptBytes(scr[k]!);
  let head = SC_NONE;
  for (let sc = 1; sc < SCRIPT_COUNT; sc++) if (headBytes[sc]! > (head === SC_NONE ? 0 : headBytes[head]!)) head = sc;
  f.headScript = SCRIPT_NAMES[head]!;
  // suffix sums of letter bytes (all, other than head)
  const restAll = new Array<number>(letters + 1).fill(0);
  const restOther = new Array<number>(letters + 1).fill(0);
  for (let k = letters - 1; k >= 0; k--) {
    const b = scriptBytes(scr[k]!);
    restAll[k] = restAll[k + 1]! + b;
    restOther[k] = restOther[k + 1]! + (scr[k] === head ? 0 : b);
  }
  let headBefore = 0;
  let best = -1;
  let bestShare = 0;
  let bestHead = 0;
  for (let k = 0; k < letters; k++) {
    const sc = scr[k]!;
    if (sc !== head && k > 0 && scr[k - 1] === head && headBefore >= MIN_HEAD && restAll[k]! >= MIN_REST_BYTES) {
      const share = restOther[k]! / restAll[k]!;
      if (share > bestShare) {
        bestShare = share;
        best = k;
        bestHead = headBefore;
      }
    }
    if (sc === head) headBefore++;
  }
  f.headLetters = best >= 0 ? bestHead : headBefore;
  if (best < 0) return;
  const at = pos[best]!;
  f.switchAt = at;
  f.switchBytes = restAll[best]!;
  f.switchShare = bestShare;
  f.switchAnnounced = ANNOUNCES.test(text.slice(Math.max(0, at - 300), at)) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------

/** Chars at the end of a long text that the word rules read: a collapse into garble runs to the end. */
export const TAIL_CHARS = 1024;

/** Word figures of the whole text when short, else of its last TAIL_CHARS (from a space on), offsets made absolute. */
function partFigures(view: TextView): ShortFigures & { from: number } {
  const chars = view.length;
  if (chars === 0) return { ...NO_SHORT, from: -1 };
  let from = 0;
  let part: string;
  if (chars <= SHORT_LIMIT) part = view.slice(0, chars);
  else {
    part = view.slice(chars - TAIL_CHARS, chars);
    const ws = part.search(/\s/);
    if (ws >= 0) part = part.slice(ws + 1);
    from = chars - part.length;
  }
  const f = shortFigures(part, from === 0);
  const shift = (at: number): number => (at >= 0 ? at + from : at);
  return {
    ...f,
    from,
    saladAt: shift(f.saladAt),
    gluedAt: shift(f.gluedAt),
    longAt: shift(f.longAt),
    mixedScriptAt: shift(f.mixedScriptAt),
    switchAt: shift(f.switchAt),
  };
}

export function createGarbleDetector(): TextDetector<GarbleFigures> {
  const scanState = newScan();
  return {
    name: 'garble',
    push(delta: string, _offset: number): void {
      if (delta.length === 0) return;
      scanState.buf += delta;
      // scan in batches: small deltas are only appended (cheap), then scanned together
      if (scanState.buf.length - scanState.done >= LOOK + BATCH) scan(scanState, false);
    },
    figures(view: TextView): GarbleFigures {
      const s = copyScan(scanState);
      scan(s, true);
      const chars = view.length;
      let trailingEndToken = 0;
      if (s.lastTokenEndClass && s.lastTokenEnd >= 0 && chars - s.lastTokenEnd <= TAIL_CHARS) {
        if (view.slice(s.lastTokenEnd, chars).trim() === '') trailingEndToken = 1;
      }
      return {
        chars,
        replacementChars: s.replacement,
        replacementGlued: s.replacementGlued,
        controlChars: s.control,
        loneSurrogates: s.lone,
        mojibake: s.mojibake,
        oddBurst: s.oddBurst,
        firstOddAt: s.firstOddAt,
        specialTokens: s.tokens,
        brokenTokens: s.broken,
        spaceMarkers: s.markers,
        specialTokensInCode: s.inCode,
        trailingEndToken,
        firstTokenAt: s.firstTokenAt,
        firstToken: s.firstToken,
        ...partFigures(view),
      };
    },
    judge(f: GarbleFigures, ctx: JudgeContext): Finding[] {
      return judgeGarble(f, ctx);
    },
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function judgeGarble(f: GarbleFigures, ctx: JudgeContext): Finding[] {
  const t = ctx.thresholds;
  const out: Finding[] = [];
  // special tokens, any length
  const leaked = f.specialTokens - f.trailingEndToken;
  const tokenWhat = [
    leaked > 0 ? `${plural(leaked, 'special token')} outside code (first ${JSON.stringify(f.firstToken)})` : '',
    f.brokenTokens > 0 ? `${plural(f.brokenTokens, 'pad/unk/byte token')} spliced into the text` : '',
    f.spaceMarkers > 0 ? `${plural(f.spaceMarkers, 'tokenizer space marker')} (▁/Ġ) glued to words` : '',
  ]
    .filter((x) => x !== '')
    .join(', ');
  if (f.brokenTokens >= t.garbleBrokenTokensFail || leaked >= t.garbleSpecialTokensFail || f.spaceMarkers >= t.garbleSpaceMarkersFail) {
    out.push(
      finding(
        'special_tokens',
        'fail',
        f.firstTokenAt,
        `${tokenWhat}: the chat template or the detokenizer leaks the vocabulary's control tokens`,
      ),
    );
  } else if (leaked + f.spaceMarkers >= t.garbleSpecialTokensWarn) {
    out.push(finding('special_tokens', 'warn', f.firstTokenAt, `${tokenWhat}; one may be a mention`));
  }

  // Whole short texts get every rule; the tail of a long text (or a whole text over
  // garbleShortMaxChars) the word rules only: its odd chars are judged by the burst, its
  // script by the window rules, which know how it opened.
  const whole = f.from === 0 && f.chars <= Math.min(t.garbleShortMaxChars, SHORT_LIMIT);
  const words = f.from >= 0 && (whole || t.garbleTailRules >= 1);
  const where = whole ? '' : f.from === 0 ? ' (whole text)' : ` (in the last ${f.chars - f.from} chars)`;
  // gibberish: each sign alone is rare in healthy text; a strong one or two of them fail
  const odd = f.replacementGlued + f.controlChars + f.loneSurrogates + f.mojibake;
  const signs: string[] = [];
  let at = -1;
  let strong = false;
  const sign = (why: string, pos: number, isStrong: boolean): void => {
    signs.push(why);
    if (at < 0 || (pos >= 0 && pos < at)) at = pos;
    if (isStrong) strong = true;
  };
  const oddWhat = `${plural(odd, 'odd char')} (U+FFFD mid-word ${f.replacementGlued}, controls ${f.controlChars}, lone surrogates ${f.loneSurrogates}, mojibake ${f.mojibake})`;
  if (f.oddBurst >= t.garbleOddBurstFail)
    sign(`${oddWhat}, ${f.oddBurst}${f.oddBurst >= BURST_RING ? '+' : ''} within 512 chars: a broken byte decode`, f.firstOddAt, true);
  else if (whole && odd > 0)
    sign(`${oddWhat}${odd >= t.garbleOddCharsFail ? ': a broken byte decode' : ''}`, f.firstOddAt, odd >= t.garbleOddCharsFail);
  if (words && f.mixedScriptWords > 0) {
    sign(
      `${plural(f.mixedScriptWords, 'word')} mixing scripts that write words apart${where}`,
      f.mixedScriptAt,
      f.mixedScriptWords >= t.garbleMixedScriptWordsFail,
    );
  }
  if (words && f.gluedLetters > 0) {
    const share = f.gluedLetters / Math.max(1, f.letters);
    sign(
      `fragments glued into words that repeat them (${JSON.stringify(f.gluedWord)}, ${(100 * share).toFixed(0)}% of the letters${where})`,
      f.gluedAt,
      share >= t.garbleGluedShare,
    );
  }
  if (words && f.longWords > 0 && f.longLetters >= LONG_GLUED_SHARE * f.letters) {
    // weak alone: a list of German compounds or a famous long word may be asked for
    sign(
      `${plural(f.longWords, 'word')} of 25+ letters make ${((100 * f.longLetters) / Math.max(1, f.letters)).toFixed(0)}% of the letters${where}: words glued without spaces`,
      f.longAt,
      false,
    );
  }
  if (signs.length > 0) {
    const fail = strong || signs.length >= 2;
    out.push(finding('gibberish', fail ? 'fail' : 'warn', at, signs.join('; ') + (fail ? ': no language is written like that' : '')));
  }
  if (!words) return out;

  // word salad
  const capitals = f.breaks === 0 ? t.garbleSaladCapitalShareUnbroken : t.garbleSaladCapitalShare;
  const caseMix = f.lowerWords >= 1 && f.upperWords >= Math.max(2, capitals * f.words);
  const scriptMix = f.saladScripts >= t.garbleSaladScripts;
  if (
    f.words >= t.garbleSaladMinWords &&
    f.words >= t.garbleSaladWordsPerBreak * Math.max(1, f.breaks) &&
    f.letterChunks >= t.garbleSaladWordShare * f.chunks &&
    (caseMix || scriptMix)
  ) {
    const why = [
      caseMix ? `${f.upperWords} capitalised mid-clause and ${f.lowerWords} lower case` : '',
      scriptMix ? `words in ${f.saladScripts} scripts` : '',
    ]
      .filter((x) => x !== '')
      .join(', ');
    out.push(
      finding(
        'word_salad',
        'fail',
        f.saladAt,
        `${plural(f.words, 'word')}${where ? where.replace(')', ', its last words)') : ''} with ${plural(f.functionWords, 'function word')} and ${plural(f.breaks, 'break')}, ${why}: not a sentence, a list or a title`,
      ),
    );
  }
  // script switch (whole short texts; the window rules judge long ones from how they opened)
  if (
    whole &&
    f.switchAt >= 0 &&
    f.headLetters >= t.garbleSwitchHeadLetters &&
    f.switchShare >= t.garbleSwitchShare &&
    f.switchBytes >= t.garbleSwitchMinBytes &&
    f.switchAnnounced === 0
  ) {
    out.push(
      finding(
        'script_switch',
        'fail',
        f.switchAt,
        `opens in ${f.headScript} for ${f.headLetters} letters, then ${(100 * f.switchShare).toFixed(0)}% of the rest is in other scripts, unannounced`,
      ),
    );
  }
  return out;
}
