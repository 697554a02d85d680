/**
 * Language per paragraph: a model that drifts into another language (an English answer that
 * ends in German, a Korean answer whose last paragraph is Chinese). The script test cannot see
 * a switch inside one script, nor one between two CJK languages. Prose units (see proseUnits)
 * go to eld, a synchronous n-gram language identifier; the statistic is "the last confident
 * units are in another language than the answer's own", the answer's own being the language
 * most of its confident letters are in and the one it opened in. A switch into an alphabetic
 * script (Latin, Cyrillic, ...; not CJK, where one letter is a syllable or a word) needs more
 * (2 units or 100 letters), and one that opens under a title of its own is a new section, not a
 * drift. The verdict reads the start, the end and the section openers only, so a fixed number of
 * units is identified whatever the length (FIRST_UNITS, LAST_UNITS, SECTION_OPENERS). Measured
 * on every labelled corpus in docs/detection.md ("Language per paragraph").
 */
import type { Detector, Scan, Values } from '../detector.js';
import { type Finding, finding } from '../finding.js';
import { eldDetector } from './eldLoader.js';
import { letterCount, type ProseParagraph, type ProseUnit, paragraphUnits, proseParagraphs } from './proseUnits.js';

export const LANGUAGE_ID_KINDS = ['language_switch'] as const;
export type LanguageIdKind = (typeof LANGUAGE_ID_KINDS)[number];

const THRESHOLDS = {
  languageConfidence: {
    value: 0.7,
    why: "eld's score for a unit's language, from which the unit counts as confident. With the rule as it stands, healthy texts (the three real corpora, test/corpus, 555 real files) stop firing from 0.6 up (at 0.55, 8 do: mixes of English and Spanish documents, a French locale page); 0.8 is too strict for CJK units and loses the catches",
  },
  languageUnitLetters: {
    value: 40,
    why: 'letters a prose unit needs before its language counts: shorter pieces (a name, a heading, a list item) are too short for an n-gram identifier to be sure',
  },
  alphabeticSwitchLetters: {
    value: 100,
    why: 'letters of a tail in an alphabetic script that fail when it is a single unit (two units fail whatever their length): a quoted sentence or one reference is no switch. A CJK letter is a syllable or a word, so a CJK tail of one unit (40+ letters) fails',
  },
} as const;

/** One identified unit. */
export interface IdentifiedUnit {
  start: number;
  /** ISO 639-1 code ('' when eld finds none). */
  lang: string;
  /** eld's score for it, 0-1. */
  score: number;
  letters: number;
  /** True when most of its letters are of an alphabet (not Han, kana or hangul). */
  alphabetic: boolean;
  /** True when it is a title, or a title stands between it and the unit identified before it: it opens a section. */
  opensSection: boolean;
}

export interface LanguageIdFigures {
  /** Prose paragraphs in the text (all found in one pass). */
  paragraphs: number;
  /** The units identified, in text order: the first ones, the last ones and the section openers. */
  units: IdentifiedUnit[];
}

/** Units identified from the start: enough for the language the answer opens in. */
const FIRST_UNITS = 8;
/** Units identified from the end: the tail a drift shows in. */
const LAST_UNITS = 16;
/**
 * Titles (with the unit after each) identified, the last ones first: a section in another
 * language starts at its title, which the tail must reach wherever it stands (without them
 * healthy mixes of documents failed: a sample of the units missed the titles).
 */
const SECTION_OPENERS = 24;
/** Letters a unit needs before it is sent to the identifier: below this no unit can count (languageUnitLetters is larger). */
const MIN_IDENTIFIED_LETTERS = 20;

/** What the judge read: the answer's language, the tail's, where the tail starts and its size. */
export interface LanguageSwitch {
  answer: string;
  tail: string;
  onset: number;
  tailUnits: number;
  tailLetters: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

function identify(u: ProseUnit, opensSection: boolean, letters: number): IdentifiedUnit {
  if (letters < MIN_IDENTIFIED_LETTERS) return { start: u.start, lang: '', score: 0, letters, alphabetic: true, opensSection };
  const r = eldDetector().detect(u.text);
  const score = Object.values(r.getScores())[0] ?? 0;
  const alphabetic = (u.text.match(CJK)?.length ?? 0) * 2 < letters;
  return { start: u.start, lang: r.language, score, letters, alphabetic, opensSection };
}

/** The units to identify, in text order, each with whether it opens a section: the first, the last and the section openers. */
export function pickedUnits(paras: readonly ProseParagraph[]): Array<[ProseUnit, boolean]> {
  // key: paragraph index * 2^20 + unit index within it (a paragraph has far fewer than 2^20 units)
  const picked = new Map<number, [ProseUnit, boolean]>();
  const add = (p: number, units: readonly ProseUnit[], from: number) => {
    for (let k = from; k < units.length; k++)
      picked.set(p * 2 ** 20 + k, [units[k]!, paras[p]!.title || (k === 0 && p > 0 && paras[p - 1]!.title)]);
  };
  let n = 0;
  for (let p = 0; p < paras.length && n < FIRST_UNITS; p++) {
    const units = paragraphUnits(paras[p]!, FIRST_UNITS - n);
    add(p, units, 0);
    n += units.length;
  }
  n = 0;
  for (let p = paras.length - 1; p >= 0 && n < LAST_UNITS; p--) {
    const units = paragraphUnits(paras[p]!);
    const from = Math.max(0, units.length - (LAST_UNITS - n));
    add(p, units, from);
    n += units.length - from;
  }
  n = 0;
  for (let p = paras.length - 1; p >= 0 && n < SECTION_OPENERS; p--) {
    if (!paras[p]!.title) continue;
    n++;
    add(p, paragraphUnits(paras[p]!), 0);
    if (p + 1 < paras.length) add(p + 1, paragraphUnits(paras[p + 1]!, 1), 0);
  }
  return [...picked.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

/** The switch the units show at the end, or null. Pure: exported for the tests. */
export function languageSwitch(units: readonly IdentifiedUnit[], t: Values<typeof THRESHOLDS>): LanguageSwitch | null {
  const sure = units.filter((u) => u.lang !== '' && u.letters >= t.languageUnitLetters && u.score >= t.languageConfidence);
  if (sure.length < 2) return null;
  const tail = sure[sure.length - 1]!.lang;
  let i = sure.length;
  let tailLetters = 0;
  let alphabeticLetters = 0;
  while (i > 0 && sure[i - 1]!.lang === tail) {
    i--;
    tailLetters += sure[i]!.letters;
    if (sure[i]!.alphabetic) alphabeticLetters += sure[i]!.letters;
  }
  const byLang = new Map<string, number>();
  for (const u of sure) byLang.set(u.lang, (byLang.get(u.lang) ?? 0) + u.letters);
  let answer = '';
  let most = -1;
  for (const [lang, letters] of byLang) {
    if (letters > most) {
      answer = lang;
      most = letters;
    }
  }
  // a tail in the language the answer opened in is a return to it, not a drift away
  if (answer === tail || sure[0]!.lang === tail) return null;
  const tailUnits = sure.length - i;
  if (alphabeticLetters * 2 > tailLetters) {
    if (tailUnits < 2 && tailLetters < t.alphabeticSwitchLetters) return null;
    if (sure[i]!.opensSection) return null;
  }
  return { answer, tail, onset: sure[i]!.start, tailUnits, tailLetters };
}

const NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

function nameOf(code: string): string {
  try {
    return NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}

export const languageId = {
  name: 'languageId' as const,
  kinds: LANGUAGE_ID_KINDS,
  thresholds: THRESHOLDS,
  figures(scan: Scan): LanguageIdFigures {
    const paras = proseParagraphs(scan.text());
    const picked = pickedUnits(paras).map(([u, opens]) => ({ u, opens, letters: letterCount(u.text) }));
    // fewer than two units an identifier could read show no switch: eld (and its data) is not loaded
    if (picked.filter((p) => p.letters >= MIN_IDENTIFIED_LETTERS).length < 2) return { paragraphs: paras.length, units: [] };
    return { paragraphs: paras.length, units: picked.map((p) => identify(p.u, p.opens, p.letters)) };
  },
  judge(f: LanguageIdFigures, t: Values<typeof THRESHOLDS>): Array<Finding<LanguageIdKind>> {
    const s = languageSwitch(f.units, t);
    if (!s) return [];
    const last = s.tailUnits === 1 ? 'the last paragraph is' : `the last ${s.tailUnits} paragraphs are`;
    return [finding('language_switch', 'fail', s.onset, `${last} in ${nameOf(s.tail)}, the answer's language is ${nameOf(s.answer)}`)];
  },
} satisfies Detector<LanguageIdFigures, LanguageIdKind, typeof THRESHOLDS>;
