/**
 * The word-salad front: the windows of spaced prose that no other window beats on both counts
 * (fewer function words and fewer breaks). Kept so the judge can read the window with the
 * fewest function words under whatever saladBreakShare a probe sets.
 */
import { ANSWER_LANGUAGE_THRESHOLDS } from '../../answerLanguage.js';
import { classOf, SC_CYRILLIC, scriptOfCode } from '../../charClass.js';
import { FUNCTION_WORDS_BY_LANGUAGE } from '../../functionWords.js';
import { identifyLanguage } from '../languageId/eldLoader.js';
import { languageId } from '../languageId/languageId.js';
import { LANGUAGE_THRESHOLDS } from './thresholds.js';

/** A window of Latin or Cyrillic prose read for word salad: its function-word share, its break share, where it starts. */
export interface SaladPoint {
  func: number;
  breaks: number;
  at: number;
  /** The language eld gives the window's text (ISO 639-1) when sure, or less sure of a window long enough or of letters no listed language writes; '' when not (identifySalad). */
  lang: string;
  /** Written in a Cyrillic alphabet other than Russian's (otherCyrillic): whatever eld names, the Russian list cannot judge it. */
  otherCyrillic: boolean;
}

/** The window with the fewest function words among those of at most `maxBreaks` break share, or null. */
export function saladUnder(front: readonly SaladPoint[], maxBreaks: number): SaladPoint | null {
  let best: SaladPoint | null = null;
  // by break share rising, function-word share falling: the last one under the bound has the fewest function words
  for (const p of front) {
    if (p.breaks > maxBreaks) break;
    best = p;
  }
  return best;
}

/**
 * Adds a window (its function-word share, break share and start) to the front unless an earlier
 * one has no more function words and no more breaks; drops those it beats. Most windows are
 * beaten: the point is made only for one that joins.
 */
export function addSaladPoint(front: SaladPoint[], func: number, breaks: number, at: number): void {
  for (const q of front) if (q.breaks <= breaks && q.func <= func) return;
  let k = 0;
  for (const q of front) if (!(q.breaks >= breaks && q.func >= func)) front[k++] = q;
  front.length = k;
  let i = 0;
  while (i < front.length && front[i]!.breaks < breaks) i++;
  front.splice(i, 0, { func, breaks, at, lang: '', otherCyrillic: false });
}

/**
 * The languages that the function-word lists cover: a window of one of them with no function word
 * is salad, while one of another language (Swedish, Finnish, Turkish, Indonesian, Vietnamese) has
 * none of the listed words whatever it says, and is not judged so (its language is asked of eld).
 * eld need not be sure of a window of two short sentences or more, or written in letters the listed
 * languages do not write: a language it knows little (Belarusian in Latin letters, Crimean Tatar,
 * Xhosa) gets a neighbour of it (Polish, Turkish, Romanian) at a low score; the six real collapses
 * that only the salad reading fails all get English (0.36-0.68).
 */
const LISTED = new Set(Object.keys(FUNCTION_WORDS_BY_LANGUAGE));
/** Function-word share under which a window's language is asked: twice the default saladFunctionShare, so prose of a listed language (0.3-0.55 function words) is never asked. */
const IDENTIFY_BELOW = 2 * LANGUAGE_THRESHOLDS.saladFunctionShare.value;
/** Break share under which a window's language is asked: twice the default saladBreakShare (lists and tables have more; a window with more is no salad by default). */
const IDENTIFY_BREAKS = 2 * LANGUAGE_THRESHOLDS.saladBreakShare.value;
/** Chars of a window's text the identifier reads: 24 chunks of prose and some to spare (compounds.ts reads as many). */
export const IDENTIFY_CHARS = 300;
/** eld's score from which the language it gives a window counts whatever letters the window holds: the one language_switch counts a unit from (its default languageConfidence). */
export const SURE = languageId.thresholds.languageConfidence.value;
/**
 * eld's score from which the language it gives a window counts when it is not sure (guessCounts). Letters drawn at
 * random (the gibberish of test/corpus, `iirhsqp zcoz fdkarwd`) get some language at 0.07-0.12; the healthy windows of
 * languages the lists do not cover, 0.18 and more (gettext translations that failed as salad: 5% under 0.24).
 */
const NAMED = 0.15;
/** Share of a window's words with a letter no listed language writes from which the window is written in another alphabet. */
const FOREIGN_WORDS = 0.1;

/**
 * The letters the listed languages write: the Latin alphabet with the accents of French, German, Spanish, Italian,
 * Portuguese and Dutch, and the Russian alphabet. Polish `ł`, Czech `ř`, Swedish `å`, Turkish `ı`, Ukrainian `і` are
 * none of them.
 */
const LISTED_LETTERS = new Set(
  [...'abcdefghijklmnopqrstuvwxyzàâæçéèêëîïôœùûüÿäößáíñóúìòãõабвгдеёжзийклмнопрстуфхцчшщъыьэюя'].map((ch) => ch.charCodeAt(0)),
);
const WORD = /[\p{L}\p{M}]+/gu;

/**
 * Letters from which eld's guess below SURE counts whatever letters they are: the letters from which the analyzer judges
 * an answer's language at all (answerLanguage's minLetters, two short sentences). English words drawn from the healthy
 * corpora and strung, 400 strings of each length, lower-case or capitalized, get a language the lists do not cover at
 * 1 in 400 with 6 words and never from 8; a real salad's 8 names (`Dungeon Canada fingers Professional Adin pee Swansea
 * TRANS`, 51 letters) get Catalan at 0.64.
 */
const NAMED_LETTERS = ANSWER_LANGUAGE_THRESHOLDS.minLetters.value;

/** A window's words as identifySalad counts them. */
interface WindowWords {
  words: number;
  letters: number;
  /** Words with a letter no listed language writes. */
  foreign: number;
  /** Words with a Cyrillic letter, and those with one the Russian alphabet lacks. */
  cyrillic: number;
  otherCyrillic: number;
}

function windowWords(s: string): WindowWords {
  const n: WindowWords = { words: 0, letters: 0, foreign: 0, cyrillic: 0, otherCyrillic: 0 };
  for (const m of s.toLowerCase().matchAll(WORD)) {
    n.words++;
    const w = m[0];
    n.letters += w.length;
    let foreign = false;
    let cyrillic = false;
    let otherCyrillic = false;
    for (let k = 0; k < w.length; k++) {
      const c = w.charCodeAt(k);
      // a combining mark is part of the letter before it; a letter of a script the lists do not hold was kept from the
      // windows read for salad (windows.ts)
      if (c >= 0x300 && c <= 0x36f) continue;
      const listed = LISTED_LETTERS.has(c);
      if (!listed) foreign = true;
      // (classOf fills the cache scriptOfCode reads)
      classOf(c);
      if (scriptOfCode(c) === SC_CYRILLIC) {
        cyrillic = true;
        if (!listed) otherCyrillic = true;
      }
    }
    if (foreign) n.foreign++;
    if (cyrillic) n.cyrillic++;
    if (otherCyrillic) n.otherCyrillic++;
  }
  return n;
}

/**
 * Whether eld's guess of a window below SURE counts: it holds NAMED_LETTERS letters, or FOREIGN_WORDS of its words hold
 * a letter no listed language writes.
 */
function guessCounts(n: WindowWords): boolean {
  return n.letters >= NAMED_LETTERS || (n.words > 0 && n.foreign >= FOREIGN_WORDS * n.words);
}

/** Share of a window's Cyrillic words with a letter the Russian alphabet lacks from which it is written in another Cyrillic alphabet. */
const OTHER_CYRILLIC_WORDS = 0.05;

/**
 * Is a window written in a Cyrillic alphabet other than Russian's: more than half its words Cyrillic, and
 * OTHER_CYRILLIC_WORDS of those (one at least) with a letter Russian does not write (Mongolian ө ү, Tajik ӣ ҳ ҷ, Kazakh
 * ә қ, Ukrainian і ї, Serbian ј љ)? eld knows Russian and names it for Mongolian and Tajik at 0.7, which the Russian
 * function words then judge as salad. A salad of Latin words with one Cyrillic word glued in is no Cyrillic text.
 */
function otherCyrillic(n: WindowWords): boolean {
  return 2 * n.cyrillic > n.words && n.otherCyrillic > 0 && n.otherCyrillic >= OTHER_CYRILLIC_WORDS * n.cyrillic;
}

/** Each window of the front under IDENTIFY_BELOW function words and IDENTIFY_BREAKS breaks gets the language eld gives it. */
export function identifySalad(front: SaladPoint[], text: string): void {
  for (const p of front) {
    if (p.func >= IDENTIFY_BELOW || p.breaks >= IDENTIFY_BREAKS) continue;
    const window = text.slice(p.at, p.at + IDENTIFY_CHARS);
    const { language, score } = identifyLanguage(window);
    const words = windowWords(window);
    p.lang = score >= SURE || (score >= NAMED && guessCounts(words)) ? language : '';
    p.otherCyrillic = otherCyrillic(words);
  }
}

/** Whether a window is in a language the function-word lists do not cover (as eld reads it): no salad to judge by them. */
export function unlisted(p: SaladPoint): boolean {
  return p.otherCyrillic || (p.lang !== '' && !LISTED.has(p.lang));
}
