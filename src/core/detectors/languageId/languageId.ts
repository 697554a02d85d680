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
 * units is identified whatever the length (FIRST_UNITS, LAST_UNITS, SAMPLE_UNITS, SECTION_OPENERS).
 * A switch that comes back (two paragraphs of Spanish in an English answer) is not read: a reading
 * of the middle caught none of the labelled collapses and cost a sixth of an analysis (measured
 * in docs/detection.md, "Switches that come back"). Measured on every labelled corpus in
 * docs/detection.md ("Language per paragraph").
 */
import type { Detector, JudgeContext, Scan, Values } from '../detector.js';
import { type Finding, finding } from '../finding.js';
import { cjkCount } from './charClasses.js';
import { identifyLanguage } from './eldLoader.js';
import { languageName } from './languageName.js';
import { type RoughWalk, roughEndsAgree } from './roughEnds.js';
import { FIRST_UNITS, LAST_UNITS, pickedUnits } from './pickedUnits.js';
import { lineBlocks } from './lineBlocks.js';
import { ParagraphCache, type ProseUnit } from './proseUnits.js';

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
  /** True when it counts for the answer's language: every unit in a short text, the even sample's in a long one. */
  weighs: boolean;
}

export interface LanguageIdFigures {
  /** Blocks of lines in the text (all found in one pass over line starts). */
  blocks: number;
  /** The units identified, in text order: the first ones, the last ones, a sample between and the section openers. */
  units: IdentifiedUnit[];
}

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

/** What the identifier said of a unit's text: a text seen again in the same answer (a line the model repeats) is not read again. */
interface Identified {
  lang: string;
  score: number;
  alphabetic: boolean;
}

function identify(u: ProseUnit, opensSection: boolean, weighs: boolean, letters: number, seen: Map<string, Identified>): IdentifiedUnit {
  if (letters < MIN_IDENTIFIED_LETTERS) return { start: u.start, lang: '', score: 0, letters, alphabetic: true, opensSection, weighs };
  // the same text has the same letters, so the same answer from the identifier and the same alphabet
  let r = seen.get(u.text);
  if (r === undefined) {
    const { language, score } = identifyLanguage(u.text);
    r = { lang: language, score, alphabetic: cjkCount(u.text) * 2 < letters };
    seen.set(u.text, r);
  }
  return { start: u.start, lang: r.lang, score: r.score, letters, alphabetic: r.alphabetic, opensSection, weighs };
}

/** Units read from one end, at most, for the first one sure by the default thresholds. */
const SURE_SEARCH = 8;

/** The shortcut's walks from the start and from the end (roughEnds.ts), by the default thresholds: made once, not per text. */
const FIRST_WALK: RoughWalk = {
  units: FIRST_UNITS,
  minLetters: THRESHOLDS.languageUnitLetters.value,
  search: SURE_SEARCH,
  stopLetters: THRESHOLDS.alphabeticSwitchLetters.value,
};
const LAST_WALK: RoughWalk = { ...FIRST_WALK, units: LAST_UNITS };

/** The first unit from `from` in direction `dir` that is sure by the default thresholds, or null within SURE_SEARCH units. */
function firstSure(n: number, at: (k: number) => IdentifiedUnit, from: number, dir: 1 | -1): IdentifiedUnit | null {
  for (let k = from, seen = 0; k >= 0 && k < n && seen < SURE_SEARCH; k += dir, seen++) {
    const u = at(k);
    if (u.lang !== '' && u.letters >= THRESHOLDS.languageUnitLetters.value && u.score >= THRESHOLDS.languageConfidence.value) return u;
  }
  return null;
}

/** From `from` in direction `dir`, the index and rough language of the first unit that has one, passing over at most SURE_SEARCH short unclear ones. */
function roughAt(
  ps: ReadonlyArray<{ u: ProseUnit; letters: number }>,
  from: number,
  dir: 1 | -1,
  cache: ParagraphCache,
): [number, string] | null {
  for (let k = from, seen = 0; k >= 0 && k < ps.length && seen < SURE_SEARCH; k += dir, seen++) {
    // the shortcut's walks read most of these units already (cached by start)
    const r = cache.roughOf(ps[k]!.u);
    if (r !== null) return [k, r];
    if (ps[k]!.letters >= THRESHOLDS.alphabeticSwitchLetters.value) return null;
  }
  return null;
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
  for (const u of sure) if (u.weighs) byLang.set(u.lang, (byLang.get(u.lang) ?? 0) + u.letters);
  // a sample with nothing confident says nothing: then every unit read counts
  if (byLang.size === 0) for (const u of sure) byLang.set(u.lang, (byLang.get(u.lang) ?? 0) + u.letters);
  let answer = '';
  let most = -1;
  for (const [lang, letters] of byLang) {
    if (letters > most) {
      answer = lang;
      most = letters;
    }
  }
  // a tail in the language the answer opened in is a return to it, not a drift away
  if (answer === '' || answer === tail || sure[0]!.lang === tail) return null;
  const tailUnits = sure.length - i;
  if (alphabeticLetters * 2 > tailLetters) {
    if (tailUnits < 2 && tailLetters < t.alphabeticSwitchLetters) return null;
    if (sure[i]!.opensSection) return null;
  }
  return { answer, tail, onset: sure[i]!.start, tailUnits, tailLetters };
}

export const languageId = {
  name: 'languageId' as const,
  kinds: LANGUAGE_ID_KINDS,
  thresholds: THRESHOLDS,
  figures(scan: Scan): LanguageIdFigures {
    const text = scan.text();
    const blocks = lineBlocks(text);
    // the ends, the sample and the titles read some of the same blocks: each is read into paragraphs once
    const cache = new ParagraphCache(text, blocks);
    // an answer whose first and last confident units share a language has no switch to show, whatever lies between
    // (with the default thresholds: the judge then sees only these units): most answers cost two or three units, and
    // the sample and the titles are not even looked for
    const none = { blocks: blocks.length, units: [] };
    // most answers: the walk below over the ends' counted units, on the few units it reads (roughEnds.ts); what the
    // rest of the reading needs is set up only past it
    if (roughEndsAgree(cache, FIRST_WALK, LAST_WALK)) return none;
    const paras = cache.of;
    const lettersOf = (u: ProseUnit) => cache.letters(u);
    const plan = (endsOnly: boolean) =>
      pickedUnits(text, blocks, THRESHOLDS.languageUnitLetters.value, endsOnly, paras, lettersOf).map(([u, opens, weighs]) => ({
        u,
        opens,
        weighs,
        letters: lettersOf(u),
      }));
    const readable = (ps: ReturnType<typeof plan>) => ps.filter((p) => p.letters >= MIN_IDENTIFIED_LETTERS).length >= 2;
    const done = new Map<number, IdentifiedUnit>();
    const seen = new Map<string, Identified>();
    const identified = (ps: ReturnType<typeof plan>) => (k: number) => {
      const p = ps[k]!;
      let u = done.get(p.u.start);
      if (u === undefined) {
        u = identify(p.u, p.opens, p.weighs, p.letters, seen);
        done.set(p.u.start, u);
      }
      return u;
    };
    const ends = plan(true);
    // the first and last units long enough to count: when their script and function words agree, so would the identifier
    // (an unclear unit too short to be a tail of its own is passed over, as firstSure passes over the identifier's unsure ones)
    // fewer units than the ends read are every unit of the text: with fewer than two readable, nothing shows a switch
    if (ends.length < FIRST_UNITS + LAST_UNITS && !readable(ends)) return none;
    const counted = ends.filter((p) => p.letters >= THRESHOLDS.languageUnitLetters.value);
    const first = counted.length < 2 ? null : roughAt(counted, 0, 1, cache);
    if (first !== null && first[0] < counted.length - 1) {
      const last = roughAt(counted, counted.length - 1, -1, cache);
      if (last !== null && last[0] > first[0] && last[1] === first[1]) return none;
    }
    if (readable(ends)) {
      const at = identified(ends);
      const first = firstSure(ends.length, at, 0, 1);
      const last = first === null ? null : firstSure(ends.length, at, ends.length - 1, -1);
      if (first !== null && last !== null && first.lang === last.lang)
        return { blocks: blocks.length, units: [...done.values()].sort((x, y) => x.start - y.start) };
    }
    const all = plan(false);
    // fewer than two units an identifier could read show no switch: eld (and its data) is not loaded
    if (!readable(all)) return none;
    const at = identified(all);
    return { blocks: blocks.length, units: all.map((_, k) => at(k)) };
  },
  judge(f: LanguageIdFigures, t: Values<typeof THRESHOLDS>, ctx: JudgeContext): Array<Finding<LanguageIdKind>> {
    // a running stream's text does not end here: its last paragraphs may be a quote or a section whose title came before
    if (ctx.partial) return [];
    const s = languageSwitch(f.units, t);
    // a tail in the language the prompt asked for is the answer it asked for (a translation after a line in English)
    if (s && s.tail !== ctx.expectLanguage) {
      const last = s.tailUnits === 1 ? 'the last paragraph is' : `the last ${s.tailUnits} paragraphs are`;
      return [
        {
          ...finding(
            'language_switch',
            'fail',
            s.onset,
            `${last} in ${languageName(s.tail)}, the answer's language is ${languageName(s.answer)}`,
          ),
          rule: 'languageConfidence',
        },
      ];
    }
    return [];
  },
} satisfies Detector<LanguageIdFigures, LanguageIdKind, typeof THRESHOLDS>;
