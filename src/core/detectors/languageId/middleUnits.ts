/**
 * The middle of an answer whose two ends are in one language, read for a switch that comes
 * back: an English answer that turns Spanish for a paragraph or two and returns to English.
 * The tail rule cannot see it (the last units are in the answer's language again). Every prose
 * unit long enough to count is read in text order, at most MIDDLE_UNITS of them (in a long
 * text, MIDDLE_WINDOWS runs of consecutive blocks evenly spaced), first by its script and
 * function words (roughLanguage, microseconds a unit): a unit they put in the answer's language
 * is not identified. Only the others go to the identifier, at most MIDDLE_IDENTIFIED of them,
 * so the cost stays bounded whatever the length.
 */
import type { LineBlock } from './proseUnits.js';
import { letterCount } from './charClasses.js';
import { type ParagraphsOf, paragraphsOf, paragraphUnits } from './proseUnits.js';
import { scriptKey } from './roughLanguage.js';

/** One unit of the middle, as the judge reads it. */
export interface MiddleUnit {
  start: number;
  /** True when script and function words put it in the answer's language (then it is not identified). */
  own: boolean;
  /** ISO 639-1 code, the identifier's ('' when not identified). */
  lang: string;
  /** The identifier's score (0 when not identified). */
  score: number;
  letters: number;
  /** 'latin', 'cyrillic', 'cjk' (Han and kana), 'hangul' or 'other' ('' when not identified): a switch into another script is script_switch's to judge. */
  script: string;
  /**
   * True when the unit is set apart as a mention: its paragraph opens with a quote mark or `>`,
   * follows a line that ends in a colon (a translation or an example announced), or opens a
   * section (a title, or the paragraph under one).
   */
  setApart: boolean;
  /** Which run of consecutive blocks it was read in: a switch is judged inside one window. */
  window: number;
}

/** Units of the middle read at most. */
const MIDDLE_UNITS = 96;
/** In a text longer than MIDDLE_UNITS units of UNIT_CHARS, the runs of consecutive blocks read, evenly spaced. */
const MIDDLE_WINDOWS = 8;
/** Units sent to the identifier at most: the ones script and function words do not put in the answer's language. */
const MIDDLE_IDENTIFIED = 24;
/** Chars of a text read whole (about MIDDLE_UNITS units of 200 chars); above it, windows. */
const WHOLE_CHARS = 19_200;

/** A quote mark or blockquote at the start of a paragraph: what follows is quoted, in whatever language. */
const QUOTED = /^[\s*_]*(?:>|["“”„«»‘’'「『])/u;

/** A colon at the end of a line: the next paragraph is announced (an example, a translation). */
function announces(s: string): boolean {
  const c = s.charCodeAt(s.trimEnd().length - 1);
  return c === 58 || c === 0xff1a;
}

/** The language code a roughLanguage key stands for. */
export function roughCode(key: string): string {
  if (key === 'Hang') return 'ko';
  if (key === 'Jpan') return 'ja';
  // Han with almost no kana: Chinese
  if (key === 'Hani') return 'zh';
  const colon = key.indexOf(':');
  return colon < 0 ? '' : key.slice(colon + 1);
}

/** The identifier: a text's language and its score for it. */
export type Identify = (text: string) => { lang: string; score: number };

/**
 * The middle units of a text, in text order: `own` tells a unit in the answer's language by
 * script and function words; the others are identified. `minLetters` is the letters a unit
 * needs to be read at all.
 */
export function middleUnits(
  text: string,
  blocks: readonly LineBlock[],
  minLetters: number,
  own: (unit: string) => boolean,
  identify: Identify,
  paras: ParagraphsOf = paragraphsOf(text, blocks),
): MiddleUnit[] {
  const out: MiddleUnit[] = [];
  const whole = text.length <= WHOLE_CHARS;
  const windows = whole ? 1 : MIDDLE_WINDOWS;
  const perWindow = Math.floor(MIDDLE_UNITS / windows);
  let identified = 0;
  for (let w = 0; w < windows; w++) {
    let n = 0;
    let prevTitle = false;
    let prevAnnounces = false;
    const from = Math.floor((w * blocks.length) / windows);
    const to = Math.floor(((w + 1) * blocks.length) / windows);
    for (let b = from; b < to && n < perWindow; b++) {
      for (const p of paras(b)) {
        const quoted = QUOTED.test(p.text);
        const units = paragraphUnits(p);
        for (let k = 0; k < units.length && n < perWindow; k++) {
          const u = units[k]!;
          const letters = letterCount(u.text);
          if (letters < minLetters) continue;
          n++;
          // the whole paragraph is set apart: a quote or a translation runs over several units
          const setApart = quoted || p.title || prevTitle || prevAnnounces;
          let lang = '';
          let score = 0;
          let script = '';
          const mine = own(u.text);
          if (!mine && identified < MIDDLE_IDENTIFIED) {
            identified++;
            ({ lang, score } = identify(u.text));
            script = scriptKey(u.text);
          }
          out.push({ start: u.start, own: mine, lang, score, letters, script, setApart, window: w });
        }
        prevTitle = p.title;
        prevAnnounces = announces(p.text);
      }
    }
  }
  return out;
}

/** What the judge found: a run in another language with the answer's on both sides. */
export interface MiddleSwitch {
  lang: string;
  onset: number;
  units: number;
  letters: number;
}

/**
 * The longest run of consecutive confident middle units in one other language than `answer`,
 * in the answer's script, not set apart, with a confident unit of the answer's language before
 * and after it in the same window; null when none has `minUnits` units. Pure: exported for the tests.
 */
export function middleSwitch(
  units: readonly MiddleUnit[],
  answer: string,
  answerScript: string,
  t: { languageConfidence: number; languageUnitLetters: number; midSwitchUnits: number },
): MiddleSwitch | null {
  // a unit the function words put in the answer's language counts as a sure one of it
  const sure = units
    .filter((u) => u.own || (u.lang !== '' && u.letters >= t.languageUnitLetters && u.score >= t.languageConfidence))
    .map((u) => (u.own ? { ...u, lang: answer } : u));
  let best: MiddleSwitch | null = null;
  for (let i = 0; i < sure.length; ) {
    const u = sure[i]!;
    if (u.lang === answer || u.script !== answerScript) {
      i++;
      continue;
    }
    let e = i + 1;
    while (e < sure.length && sure[e]!.lang === u.lang && sure[e]!.window === u.window && sure[e]!.script === answerScript) e++;
    // a run that opens set apart is a mention, all of it (a quote or a translation of several units)
    if (u.setApart) {
      i = e;
      continue;
    }
    const before = i > 0 && sure[i - 1]!.lang === answer && sure[i - 1]!.window === u.window;
    const after = e < sure.length && sure[e]!.lang === answer && sure[e]!.window === u.window;
    const n = e - i;
    if (before && after && n >= t.midSwitchUnits && (best === null || n > best.units)) {
      let letters = 0;
      for (let k = i; k < e; k++) letters += sure[k]!.letters;
      best = { lang: u.lang, onset: u.start, units: n, letters };
    }
    i = e;
  }
  return best;
}
