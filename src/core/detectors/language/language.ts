/**
 * Does the text read as some language, and the same one throughout? Read over windows of
 * prose chunks (wordShapes.ts; code, markup and addresses are left out):
 * - gibberish: the share of malformed chunks. Prose in any language has a few (a brand name,
 *   an acronym with a digit); broken decoding, a wrong tokenizer or a sampler gone wild makes
 *   every other chunk one. And the share of chunks with punctuation where no language puts
 *   it: a sampler gone wild scatters marks between words ("emem,, sa", "I! can! write!!!");
 * - word salad: words of a language with spaces but no function words and no punctuation
 *   between them, clause after clause (lists, tables, titles and keyword lines are broken up
 *   by commas, line breaks and markers); or function words and hardly anything else;
 * - script switch: prose in another script than the text's own, for a sentence or more. The
 *   text's script is the one most of its letters are in; Latin terms, names and references
 *   inside Chinese, Japanese or Korean prose are normal, so a switch into Latin must run far
 *   longer than a switch out of it.
 * What fenced code blocks hold is read apart (readChunks' fenced reading): code stays code, but
 * a block that turned into noise or into a line of strung words fails as the prose would.
 */
import { CH_SPACE, classOf, SC_CJK, SC_NONE, SCRIPT_NAMES } from '../../charClass.js';
import { F_LINE, K_PUNCT, KIND_MASK, type TokenBuffer } from '../../text/tokens.js';
import type { Detector, Scan, Values } from '../detector.js';
import { type Finding, finding, fmt } from '../finding.js';
import { SlidingShare } from '../slidingShare.js';
import { chineseVariant, VARIANT_NAMES } from './chineseVariant.js';
import {
  C_AFTER,
  C_BREAK,
  C_CASED,
  C_CODEISH,
  C_FUNC,
  C_GLUE,
  C_LINE,
  C_MALFORMED,
  type Chunks,
  gluesLatin,
  readChunks,
} from './wordShapes.js';

export const LANGUAGE_KINDS = ['gibberish', 'word_salad', 'script_switch'] as const;
export type LanguageKind = (typeof LANGUAGE_KINDS)[number];

const THRESHOLDS = {
  malformedShare: {
    value: 0.3,
    why: 'share of the letters of a window of prose (or of a whole short output) in malformed chunks that fails as gibberish (a chunk weighs its letters, up to 20). Healthy windows reach 0.2 (npm run bench -- thresholds)',
  },
  noiseShare: {
    value: 0.3,
    why: 'share of the chunks of a window of prose (8+ chunks) with punctuation where no language puts it (marks doubled or mixed, "!" before a lower-case word, punctuation alone with a dot or comma) that fails as gibberish. Healthy model outputs reach 0.11, the real files 0.2 (SQL placeholders; npm run bench -- thresholds)',
  },
  saladFunctionShare: {
    value: 0.05,
    why: 'share of chunks that are function words under which a window of Latin or Cyrillic prose, run on without breaks, is word salad. Prose has 0.3-0.55',
  },
  soupFunctionShare: {
    value: 0.9,
    why: 'share of function words in a full window of prose with few breaks (a quarter of its chunks at most) from which it fails as word salad: "and the of the and the". Prose keeps a content word in every four or five chunks: healthy model outputs reach 0.79, the real files 0.83 (npm run bench -- thresholds)',
  },
  saladBreakShare: {
    value: 0.1,
    why: '...with at most this share of chunks followed by punctuation or a line break: lists, titles, tables and keyword lines break every 1-3 chunks',
  },
  saladEndWords: {
    value: 6,
    why: 'words that end the text after a sentence, the first in lower case, none a function word and no punctuation or line break between them, that fail as word salad: a fluent answer whose last words are strung keywords ("... this spring. hotel flight cheap deal booking tram"). A sentence in a script with capitals starts with one: no healthy model output ends so, the real files in 2 such words at most (6 readings of 8,055, whole and cut; npm run bench -- thresholds)',
  },
  listItems: {
    value: 40,
    why: 'items in a row on one line, each a word and none a function word (commas, semicolons or spaces between them), that fail when listRepeatShare of them repeat an earlier item: a run-on list drawn from a few words, alone on its line or after a sentence that ran into it. Healthy model outputs reach 14 such items, the real files 45 (a package.json keyword list) at a p99.9 of 18 (npm run bench -- thresholds)',
  },
  listRepeatShare: {
    value: 0.4,
    why: 'share of the items of such a line that repeat an earlier one: a healthy list names each thing once (0-0.1)',
  },
  codeChunkShare: {
    value: 0.5,
    why: 'share of 24 chunks of prose in a row that read as random codes the text had not used before, that fails as gibberish: capital letters and digits mixed ("7QX2", "0PL9W"; 3-8 chars, two capitals and a digit, not hex, opening with a digit or in three runs: "BRCA1" and "RTX4090" are names), or 4-24 chars of every class in turn between words on a line ("yDgU7j", "K6so&CJ#P"; a change of class at 60% of the chars, two capitals, no three lower-case letters in a row, no chemical formula). Neither counts as an item of a list ("1. X7K2P9", "| aB3xQ9 |", "X7K2P9," in a sentence: generated coupon codes, passwords, formulas). Healthy model outputs reach 0.083, the real files 0.208 (a FAQ in HTML; npm run bench -- thresholds), a sentence of eight random-looking part numbers written apart by spaces (3M8X2 4K9Z1 ...) 0.47, so the threshold stays above that; a table of CARD32 fields repeats its codes and reads 0.08. Chunks of printable chars drawn at random read 0.46-0.63 over 150 chunks, 0.54-0.71 over 300',
  },
  markLineShare: {
    value: 0.5,
    why: 'share of 40 lines in a row (blank ones aside) that hold marks alone ("**", ".", ",", ";") that fails as gibberish: a text that fell apart into fragments between lone marks. Healthy texts reach 0.13 (a manual in HTML; model outputs 0.03; npm run bench -- thresholds); a JSDoc comment\'s lone "*" lines are not counted',
  },
  switchLetters: {
    value: 12,
    why: "letters of prose in one run in another script than the text's own (out of Latin) that fail: a sentence. Healthy texts quote at most 6 (a word in another language; npm run bench -- thresholds)",
  },
  switchLettersAlphabet: {
    value: 200,
    why: 'the same between two alphabets written with spaces (Latin, Greek, Cyrillic, Hebrew, Arabic...), where quoted examples of another language run a phrase or two: healthy texts reach 33 (Greek examples in an English grammar quiz)',
  },
  variantSwitchMarks: {
    value: 12,
    why: 'characters in a row written the way of the other Chinese variant (simplified or traditional) than the text opens in, none of its own between them, that fail as a switch: a sentence or two. A quoted title or name has 1-3; the healthy texts here hold few Chinese texts (one model output and two READMEs, longest run 1), so this is set from how Chinese is written more than measured',
  },
  switchLettersIntoLatin: {
    value: 600,
    why: 'the same for a run of Latin prose in a text written in Chinese, Japanese or Korean, where Latin terms, names and references are normal: healthy texts reach 420 (a list of references)',
  },
} as const;

/** Scripts written with spaces between words (the rest: CJK, Thai, and Hangul, whose words take Latin terms glued). */
export const SPACED: ReadonlySet<string> = new Set(['latin', 'greek', 'cyrillic', 'armenian', 'hebrew', 'arabic', 'indic', 'georgian']);

/** A chunk weighs its letters, up to this many: words glued into one 1,000-letter chunk count as many words, not one. */
const WEIGHT_CAP = 100;
/**
 * Letters of prose chunks in a window of code or data from which they are judged apart: no
 * healthy reading has a malformed one in such a window (none in the 280 readings of the real
 * files that have such a window, whole and cut; model outputs keep their code in blocks), so
 * the floor only keeps one long identifier in a comment (up to WEIGHT_CAP letters) from being
 * half of the prose judged.
 */
const PROSE_IN_CODE = 2 * WEIGHT_CAP;
/** Prose chunks per window; windows slide by half of it. */
const WINDOW = 24;
/** Fewest chunks judged for gibberish: a whole output of one glued word of 25+ letters is judged too. */
const MIN_CHUNKS = 1;
/** Fewest chunks judged for punctuation noise. */
const NOISE_MIN_CHUNKS = 8;
/** Share of a window's chunks with a break after them under which it is judged for function-word soup: a list of stop words is not. */
const SOUP_BREAKS = 0.25;
/** Fewest chunks judged for word salad. */
const SALAD_MIN_CHUNKS = 6;

/**
 * What fenced code blocks hold, read as the prose is (fields as in LanguageFigures): the worst
 * malformed window, and the longest run-on line of words with its repeats. Not the salad of
 * windows without function words: an install line or a keyword list in a block is one.
 */
export interface FencedFigures {
  malformed: number;
  malformedAt: number;
  listItems: number;
  listRepeats: number;
  listAt: number;
}

/** The window readings (readWindows). */
type WindowFigures = Pick<LanguageFigures, 'windows' | 'malformed' | 'malformedAt' | 'noise' | 'noiseAt' | 'func' | 'funcAt' | 'salad'>;

/** A window of Latin or Cyrillic prose read for word salad: its function-word share, its break share, where it starts. */
export interface SaladPoint {
  func: number;
  breaks: number;
  at: number;
}

export interface LanguageFigures {
  /** Windows judged, and the worst one for each reading: its share and where it starts (-1 when none). */
  windows: number;
  malformed: number;
  malformedAt: number;
  /**
   * Windows of Latin or Cyrillic prose that no other window beats on both counts (fewer function words and
   * fewer breaks), by break share rising, function-word share falling: the judge reads the one with the fewest
   * function words under its saladBreakShare, whatever that threshold is set to.
   */
  salad: SaladPoint[];
  /** The same readings of what fenced code blocks hold (null when the text has none). */
  fenced: FencedFigures | null;
  /** The highest share of chunks with punctuation where no language puts it, among windows of prose, and where. */
  noise: number;
  noiseAt: number;
  /** The highest share of function words among full windows of spaced prose with few breaks, and where. */
  func: number;
  funcAt: number;
  /** The highest share of chunks that read as codes of capitals and digits among CODE_CHUNKS in a row, and where those start. */
  codeChunks: number;
  codeChunksAt: number;
  /** The highest share of lines of marks alone among MARK_LINES lines in a row, and where those start. */
  markLines: number;
  markLinesAt: number;
  /** Words strung at the end after a sentence (saladEndWords), and where they start (-1 when none). */
  endWords: number;
  endWordsAt: number;
  /** The longest run of one-word items on one line that repeat earlier items, its items, repeat share and start. */
  listItems: number;
  listRepeats: number;
  listAt: number;
  /** The text's script, and the longest run of prose in another one. */
  script: string;
  switchScript: string;
  switchLetters: number;
  switchAt: number;
  /** Chinese: the variant the text opens in ('' when none), and the longest run of the other one's characters. */
  variant: string;
  variantRun: number;
  variantAt: number;
}

export const language = {
  name: 'language' as const,
  kinds: LANGUAGE_KINDS,
  thresholds: THRESHOLDS,
  figures(scan: Scan): LanguageFigures {
    const c = readChunks(scan.tokens);
    const main = openingScript(c);
    const f: LanguageFigures = {
      windows: 0,
      malformed: 0,
      malformedAt: -1,
      salad: [],
      fenced: null,
      noise: 0,
      noiseAt: -1,
      func: 0,
      funcAt: -1,
      script: SCRIPT_NAMES[main] ?? 'none',
      switchScript: '',
      switchLetters: 0,
      switchAt: -1,
      markLines: 0,
      markLinesAt: -1,
      codeChunks: 0,
      codeChunksAt: -1,
      listItems: 0,
      listRepeats: 0,
      listAt: -1,
      endWords: 0,
      endWordsAt: -1,
      variant: '',
      variantRun: 0,
      variantAt: -1,
    };
    // the windows cover every chunk: whether any is Chinese (then the variant is read)
    const cjk = readWindows(c, f);
    // what fenced code blocks hold, read apart: code, or the words or the noise a collapse inside a block turned into
    if (c.fenced) {
      const fc = readChunks(scan.tokens, 0, true);
      const g = { ...f, windows: 0, malformed: 0, malformedAt: -1, salad: [], listItems: 0, listRepeats: 0, listAt: -1 };
      readWindows(fc, g);
      runOnList(fc, g);
      f.fenced = {
        malformed: g.malformed,
        malformedAt: g.malformedAt,
        listItems: g.listItems,
        listRepeats: g.listRepeats,
        listAt: g.listAt,
      };
    }
    foreignRun(c, main, f);
    if (cjk) {
      const v = chineseVariant(scan.tokens, scan.text());
      f.variant = VARIANT_NAMES[v.variant] ?? '';
      f.variantRun = v.run;
      f.variantAt = v.at;
    }
    runOnList(c, f);
    endWords(scan.text(), c, f);
    markOnlyLines(scan.tokens, f);
    codeChunks(scan.text(), c, f);
    return f;
  },
  judge(f: LanguageFigures, t: Values<typeof THRESHOLDS>): Array<Finding<LanguageKind>> {
    const out: Array<Finding<LanguageKind>> = [];
    if (f.malformed >= t.malformedShare)
      out.push(
        finding(
          'gibberish',
          'fail',
          f.malformedAt,
          `${fmt(100 * f.malformed, 0)}% of the words of a stretch are no word of any language (case flipping inside, scripts glued, no vowel)`,
        ),
      );
    if (f.noise >= t.noiseShare)
      out.push(
        finding(
          'gibberish',
          'fail',
          f.noiseAt,
          `${fmt(100 * f.noise, 0)}% of the words of a stretch carry punctuation where no language puts it (",,", "..", "!!", "I! can!")`,
        ),
      );
    if (f.codeChunks >= t.codeChunkShare)
      out.push(
        finding(
          'gibberish',
          'fail',
          f.codeChunksAt,
          `${fmt(100 * f.codeChunks, 0)}% of ${CODE_CHUNKS} words in a row are new codes of capital letters and digits mixed at random ("7QX2", "0PL9W")`,
        ),
      );
    if (f.markLines >= t.markLineShare)
      out.push(
        finding(
          'gibberish',
          'fail',
          f.markLinesAt,
          `${fmt(100 * f.markLines, 0)}% of ${MARK_LINES} lines in a row hold marks alone ("**", ".", ","): the text fell apart into fragments`,
        ),
      );
    const salad = saladUnder(f.salad, t.saladBreakShare);
    if (salad && salad.func <= t.saladFunctionShare)
      out.push(
        finding(
          'word_salad',
          'fail',
          salad.at,
          `a stretch of words with ${fmt(100 * salad.func, 0)}% function words and hardly a break between them`,
        ),
      );
    if (f.endWords >= t.saladEndWords)
      out.push(
        finding(
          'word_salad',
          'fail',
          f.endWordsAt,
          `the text ends in ${f.endWords} words strung together after a sentence, the first in lower case, none a function word and no break between them`,
        ),
      );
    if (f.func >= t.soupFunctionShare)
      out.push(
        finding(
          'word_salad',
          'fail',
          f.funcAt,
          `a stretch of words ${fmt(100 * f.func, 0)}% of which are function words ("and the of the"), with hardly a word that says anything`,
        ),
      );
    if (f.listItems >= t.listItems && f.listRepeats / f.listItems >= t.listRepeatShare)
      out.push(
        finding(
          'word_salad',
          'fail',
          f.listAt,
          `a line of ${f.listItems} words in a row, ${fmt((100 * f.listRepeats) / f.listItems, 0)}% of them said before in it, nearly none a function word`,
        ),
      );
    const need =
      f.switchScript === 'latin' && !SPACED.has(f.script)
        ? t.switchLettersIntoLatin
        : SPACED.has(f.script) && SPACED.has(f.switchScript)
          ? t.switchLettersAlphabet
          : t.switchLetters;
    if (f.switchLetters >= need)
      out.push(finding('script_switch', 'fail', f.switchAt, `${f.switchLetters} letters of ${f.switchScript} prose in a ${f.script} text`));
    if (f.variantRun >= t.variantSwitchMarks)
      out.push(
        finding(
          'script_switch',
          'fail',
          f.variantAt,
          `${f.variantRun} characters in a row of ${f.variant === 'simplified' ? 'traditional' : 'simplified'} Chinese in a ${f.variant} text`,
        ),
      );
    // inside a fenced code block: code is read as code (its identifiers are no malformed words), but a block that turned
    // into noise, or into a line of words drawn from a few, is judged as prose is, by the same thresholds
    const g = f.fenced;
    if (g && g.malformed >= t.malformedShare && !out.some((x) => x.kind === 'gibberish'))
      out.push(
        finding(
          'gibberish',
          'fail',
          g.malformedAt,
          `${fmt(100 * g.malformed, 0)}% of the words of a stretch inside a code block are no word of any language (case flipping inside, scripts glued, no vowel)`,
        ),
      );
    if (g && g.listItems >= t.listItems && g.listRepeats / g.listItems >= t.listRepeatShare && !out.some((x) => x.kind === 'word_salad'))
      out.push(
        finding(
          'word_salad',
          'fail',
          g.listAt,
          `a line of ${g.listItems} words in a row inside a code block, ${fmt((100 * g.listRepeats) / g.listItems, 0)}% of them said before in it, nearly none a function word`,
        ),
      );
    return out;
  },
} satisfies Detector<LanguageFigures, LanguageKind, typeof THRESHOLDS>;

/** Letters of opening prose that say which script the text is in. */
const OPENING_LETTERS = 12;

/**
 * The text's own script: the one most letters of its opening prose are in (its first 12
 * letters of clauses that read as prose in their script: with one of its function words, or
 * in a script written without spaces), so a README that opens with badges, product names
 * and markup and then is written in Russian or Chinese is a Russian or Chinese text.
 * Without such clauses, the script most of its letters are in.
 */
function openingScript(c: Chunks): number {
  const clause = new Int32Array(16);
  const opening = new Int32Array(16);
  const all = new Int32Array(16);
  let proseLetters = 0;
  // scripts the clause reads as prose in: one of its function words, or letters of a script written without spaces
  let prose = 0;
  for (let i = 0; i < c.n; i++) {
    const s = c.script[i]!;
    const fl = c.flags[i]!;
    // a chunk gluing two scripts ("people这些年来…") counts the letters of its main script only; a name in markup none
    if (!(fl & C_CODEISH)) {
      all[s] = all[s]! + c.scriptLetters[i]!;
      clause[s] = clause[s]! + c.scriptLetters[i]!;
      if (fl & C_FUNC || gluesLatin(s)) prose |= 1 << s;
    }
    if (fl & C_BREAK || i === c.n - 1) {
      for (let s = 1; s < 16; s++) {
        if (!(prose & (1 << s))) continue;
        opening[s] = opening[s]! + clause[s]!;
        proseLetters += clause[s]!;
      }
      if (proseLetters >= OPENING_LETTERS) return dominant(opening);
      clause.fill(0);
      prose = 0;
    }
  }
  return dominant(all);
}

/** Sums over a stretch of chunks: their offsets in an Int32Array of SUMS (SCRIPTS: letters per script, 16 of them). */
const S = {
  N: 0,
  WEIGHT: 1,
  MALFORMED: 2,
  /** Weight of chunks gluing two scripts (their own not one that glues Latin terms), and of those malformed besides. */
  GLUED: 3,
  GLUED_MALFORMED: 4,
  FUNC: 5,
  BREAKS: 6,
  CODEISH: 7,
  SPACED: 8,
  NOISY: 9,
  LETTERLESS: 10,
  /** The first chunk of the stretch. */
  FROM: 11,
  SCRIPTS: 12,
} as const;
const SUMS = S.SCRIPTS + 16;

/** The sums of the chunks [a, b), written into `w` (its scripts zeroed by the caller), which it returns. */
function chunkSums(c: Chunks, a: number, b: number, w: Int32Array): Int32Array {
  let weight = 0;
  let malformed = 0;
  let glued = 0;
  let gluedMalformed = 0;
  let func = 0;
  let breaks = 0;
  let codeish = 0;
  let spaced = 0;
  let noisy = 0;
  let letterless = 0;
  for (let i = a; i < b; i++) {
    const fl = c.flags[i]!;
    const s = c.script[i]!;
    const ns = c.noise[i]!;
    w[S.SCRIPTS + s] = w[S.SCRIPTS + s]! + c.scriptLetters[i]!;
    if (ns & 1 && !(fl & C_CODEISH)) noisy++;
    noisy += ns >> 1;
    letterless += ns >> 1;
    const wt = Math.min(c.letters[i]!, WEIGHT_CAP);
    weight += wt;
    if (fl & C_CODEISH) codeish += wt;
    if (fl & C_BREAK) breaks++;
    if (fl & C_FUNC) func++;
    const own = gluesLatin(s);
    if (!own) spaced++;
    if (fl & C_GLUE && !own) {
      glued += wt;
      if (fl & C_MALFORMED) gluedMalformed += wt;
    } else if (fl & C_MALFORMED) malformed += wt;
  }
  w[S.N] = b - a;
  w[S.WEIGHT] = weight;
  w[S.MALFORMED] = malformed;
  w[S.GLUED] = glued;
  w[S.GLUED_MALFORMED] = gluedMalformed;
  w[S.FUNC] = func;
  w[S.BREAKS] = breaks;
  w[S.CODEISH] = codeish;
  w[S.SPACED] = spaced;
  w[S.NOISY] = noisy;
  w[S.LETTERLESS] = letterless;
  w[S.FROM] = a;
  return w;
}

function dominant(letters: Int32Array): number {
  let best = SC_NONE;
  for (let s = 1; s < 16; s++) if (letters[s]! > letters[best]!) best = s;
  return best;
}

/**
 * The longest run of chunks on one line, each one word and no function word (a comma or
 * semicolon after it allowed), and how many of them repeat a word said before in the run.
 * A function word ends a run as a line does: a sentence that runs on into a list of words is
 * read from where the list starts, and the words of a sentence make runs of a few.
 */
function runOnList(c: Chunks, f: Pick<LanguageFigures, 'listItems' | 'listRepeats' | 'listAt'>): void {
  let items = 0;
  let at = -1;
  let from = 0;
  // a run is counted for repeats only when it would be the longest so far (rarely)
  const end = (to: number) => {
    if (items > f.listItems) {
      const seen = new Set<number>();
      let repeats = 0;
      for (let k = from; k < to; k++) {
        if (seen.has(c.key[k]!)) repeats++;
        else seen.add(c.key[k]!);
      }
      f.listItems = items;
      f.listRepeats = repeats;
      f.listAt = at;
    }
    items = 0;
  };
  for (let i = 0; i < c.n; i++) {
    const fl = c.flags[i]!;
    // a line, a chunk of code or data, a long chunk or a function word ends the run (prose that runs on into a list of
    // words on the same line starts it)
    if (fl & (C_LINE | C_CODEISH | C_FUNC) || c.letters[i]! > 30) end(i);
    if (fl & (C_CODEISH | C_FUNC) || c.letters[i]! > 30) continue;
    if (items === 0) {
      at = c.start[i]!;
      from = i;
    }
    items++;
  }
  end(c.n);
}

/** Chunks over which chunks that read as codes are counted (all of them in a text of fewer, 8 at least). */
const CODE_CHUNKS = 24;
const CODE_MIN_CHUNKS = 8;

/**
 * The highest share, among CODE_CHUNKS chunks in a row, of chunks that read as random codes the
 * text had not used before: 3 to 8 capital letters and digits mixed, two capitals and a digit at
 * least, not a hex number ("7QX2", "0PL9W", "XK2Q"), with marks before or after them allowed; or
 * 4 to 24 chars that change between lower case, capitals, digits and marks at every other char
 * or more often, with no three lower-case letters in a row ("yDgU7j", "K6so&CJ#P"), as chars
 * drawn at random do. Names like "CO2", "MP3", "HTTP2", "GitHub's" are such codes, and a spec or
 * a table repeats its own ("CARD32"); random ones come new each time, and healthy text never has
 * half its words of them.
 */
function codeChunks(text: string, c: Chunks, f: LanguageFigures): void {
  // a code the text had used already is a name it goes on using (a field type, a part number), no random one
  const seen = new Set<number>();
  const window = new SlidingShare(CODE_CHUNKS);
  for (let i = 0; i < c.n; i++) {
    const at = c.start[i]!;
    // most chunks are words in lower case: no code, and not random (which takes two capitals). Neither is read as an
    // item or a cell of its own ("1. X7K2P9", "| aB3xQ9 |": a list of coupon codes or passwords, a table of keys), and
    // random chars only between words on a line
    const fl = c.flags[i]!;
    const code =
      (fl & (C_CASED | C_AFTER)) === C_CASED &&
      ((!isLower(text.charCodeAt(at)) && readsAsCode(text, at)) || ((fl & C_LINE) === 0 && readsAsRandom(text, at)));
    window.push(code && !seen.has(c.key[i]!), at);
    if (code) seen.add(c.key[i]!);
  }
  window.finish(CODE_MIN_CHUNKS);
  f.codeChunks = window.best;
  f.codeChunksAt = window.bestAt;
}

function isLower(ch: number): boolean {
  return ch >= 0x61 && ch <= 0x7a;
}

/**
 * Is the chunk at `at` (to the next whitespace) 4-24 printable ASCII chars that change class
 * (lower case, capital, digit, mark) at 60% of its chars or more, with two capitals, a lower-case
 * letter and a digit or mark, and no three lower-case letters in a row? Words, identifiers
 * ("getElementById", "McDonald's") and numbers do not; chars drawn at random do. Not a chemical
 * formula ("KMnO4", "Ca(OH)2", "Fe2O3."), whose lower-case letters each follow a capital, and not
 * an item of a list in a sentence (a comma or semicolon after it).
 */
function readsAsRandom(text: string, at: number): boolean {
  let len = 0;
  let capitals = 0;
  let lowers = 0;
  let others = 0;
  let runs = 0;
  let prev = -1;
  let lowerRun = 0;
  let last = 0;
  // a formula: element symbols (a capital, maybe one lower-case letter), counts and brackets, marks only at its end
  const first = text.charCodeAt(at);
  let formula = !isLower(first);
  let marksAtEnd = false;
  for (let i = at; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch <= 0x20) break;
    if (ch >= 0x7f || ++len > 24) return false;
    last = ch;
    // its class, named by a char of it: a (lower case), A (capital), 0 (digit) or ! (mark)
    const lower = isLower(ch);
    const k = lower ? 0x61 : ch >= 0x41 && ch <= 0x5a ? 0x41 : ch >= 0x30 && ch <= 0x39 ? 0x30 : 0x21;
    if (lower) {
      if (++lowerRun >= 3) return false;
      lowers++;
      if (prev !== 0x41 || lowerRun > 1) formula = false;
    } else {
      lowerRun = 0;
      if (k === 0x41) capitals++;
      else others++;
    }
    if (k === 0x21 && ch !== 0x28 && ch !== 0x29) marksAtEnd = true;
    else if (marksAtEnd) formula = false;
    if (k !== prev) runs++;
    prev = k;
  }
  if (formula || last === 0x2c || last === 0x3b) return false;
  return len >= 4 && capitals >= 2 && lowers >= 1 && others >= 1 && runs >= 0.6 * len;
}

/** Is the chunk at `at` (to the next whitespace) 3-8 capitals and digits mixed (opening with a digit, or three runs of them at least: not a name such as "BRCA1"), two capitals and a digit at least, not hex, marks around it aside? */
function readsAsCode(text: string, at: number): boolean {
  let i = at;
  // marks before it
  while (i < text.length && isMarkChar(text.charCodeAt(i))) i++;
  let len = 0;
  let capitals = 0;
  let digits = 0;
  let hex = true;
  // runs of capitals and of digits: a name is letters then a number ("BRCA1", "RTX4090", "HTTP2"); a random code mixes
  // them more, or opens with a digit
  const digitFirst = text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39;
  let runs = 0;
  let wasDigit = false;
  for (; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    const digit = ch >= 0x30 && ch <= 0x39;
    if (digit) digits++;
    else if (ch >= 0x41 && ch <= 0x5a) {
      capitals++;
      if (ch > 0x46) hex = false;
    } else break;
    if (len === 0 || digit !== wasDigit) runs++;
    wasDigit = digit;
    if (++len > 8) return false;
  }
  // marks after it, then whitespace or the end; a comma or semicolon makes it an item of a list in a sentence ("codes X7K2P9, Q4M8ZT")
  let item = false;
  for (; i < text.length && isMarkChar(text.charCodeAt(i)); i++)
    if (text.charCodeAt(i) === 0x2c || text.charCodeAt(i) === 0x3b) item = true;
  if (item || (i < text.length && classOf(text.charCodeAt(i)) !== CH_SPACE)) return false;
  return len >= 3 && capitals >= 2 && digits >= 1 && !hex && (runs >= 3 || digitFirst);
}

function isMarkChar(ch: number): boolean {
  return ch < 0x80 && ch > 0x20 && !((ch >= 0x30 && ch <= 0x39) || (ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a));
}

/** Lines (blank ones aside) over which marks-alone lines are counted. */
const MARK_LINES = 40;
/** * _ . , ; : ! ? : emphasis and sentence marks, which alone on a line say nothing. */
const LONE_MARKS = new Uint8Array(128);
for (const c of '*_.,;:!?') LONE_MARKS[c.charCodeAt(0)] = 1;

/**
 * The highest share, among MARK_LINES lines in a row, of lines that hold sentence or emphasis
 * marks and nothing else ("**", ".", ",", "*_"). A lone "*" is a blank line of a comment.
 */
function markOnlyLines(t: TokenBuffer, f: LanguageFigures): void {
  const window = new SlidingShare(MARK_LINES);
  let only = true;
  let tokens = 0;
  let star = false;
  let start = -1;
  const endLine = () => {
    if (tokens > 0) window.push(only && !(tokens === 1 && star), start);
  };
  const info = t.info;
  for (let i = 0; i < t.n; i++) {
    if (i > 0 && info[i]! & F_LINE) {
      endLine();
      only = true;
      tokens = 0;
    }
    if (tokens === 0) start = t.start[i]!;
    tokens++;
    const id = t.id[i]!;
    star = id === 0x2a;
    if ((info[i]! & KIND_MASK) !== K_PUNCT || id >= 128 || LONE_MARKS[id] === 0) {
      only = false;
      // the rest of the line says nothing more: on to its end
      while (i + 1 < t.n && !(info[i + 1]! & F_LINE)) i++;
    }
  }
  endLine();
  f.markLines = window.best;
  f.markLinesAt = window.bestAt;
}

/**
 * The words that end the text after its last sentence, when they are no sentence: the chunks
 * back from the end of the text (on its last line) with no function word, no punctuation or
 * line break between them, in a script that writes words apart, the first in lower case right
 * after a sentence mark (. ! ?).
 */
function endWords(text: string, c: Chunks, f: LanguageFigures): void {
  // the last chunk of prose ends the text: no line of code, markup or anything else after it (no line break between it
  // and the text's last char that is not whitespace)
  if (c.n === 0) return;
  let last = text.length - 1;
  while (last >= 0 && classOf(text.charCodeAt(last)) === CH_SPACE) last--;
  const lineBreak = text.indexOf('\n', c.start[c.n - 1]!);
  if (lineBreak >= 0 && lineBreak < last) return;
  let first = -1;
  for (let i = c.n - 1; i >= 0; i--) {
    const fl = c.flags[i]!;
    // a mark after the last word (a closing full stop) is its own; one before another word ends the run
    if (i < c.n - 1 && fl & C_BREAK) break;
    if (fl & (C_FUNC | C_CODEISH) || gluesLatin(c.script[i]!)) return;
    first = i;
    if (fl & C_LINE) return;
  }
  if (first < 0) return;
  const at = c.start[first]!;
  const ch = text.charCodeAt(at);
  if (!(ch >= 0x61 && ch <= 0x7a) && !(ch >= 0x430 && ch <= 0x44f)) return;
  let j = at - 1;
  while (j >= 0 && classOf(text.charCodeAt(j)) === CH_SPACE) j--;
  const mark = j >= 0 ? text.charCodeAt(j) : 0;
  if (mark !== 0x2e && mark !== 0x21 && mark !== 0x3f) return;
  f.endWords = c.n - first;
  f.endWordsAt = at;
}

/** The longest run of chunks in one script other than the main one (letters counted). */
function foreignRun(c: Chunks, main: number, f: LanguageFigures): void {
  let run = 0;
  let runScript = SC_NONE;
  let runAt = -1;
  for (let i = 0; i < c.n; i++) {
    const s = c.script[i]!;
    if (s === main || s === SC_NONE) {
      run = 0;
      runScript = SC_NONE;
      continue;
    }
    if (s !== runScript) {
      run = 0;
      runScript = s;
      runAt = c.start[i]!;
    }
    // a chunk with code punctuation ("[![CI", "version][npm-badge]") is a name in markup: its letters are not the prose's
    if (c.flags[i]! & C_CODEISH) continue;
    run += c.letters[i]!;
    if (run > f.switchLetters) {
      f.switchLetters = run;
      f.switchScript = SCRIPT_NAMES[s] ?? 'other';
      f.switchAt = runAt;
    }
  }
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

/** Adds a window to the front unless an earlier one has no more function words and no more breaks; drops those it beats. */
function addSaladPoint(front: SaladPoint[], p: SaladPoint): void {
  if (front.some((q) => q.breaks <= p.breaks && q.func <= p.func)) return;
  let k = 0;
  for (const q of front) if (!(q.breaks >= p.breaks && q.func >= p.func)) front[k++] = q;
  front.length = k;
  let i = 0;
  while (i < front.length && front[i]!.breaks < p.breaks) i++;
  front.splice(i, 0, p);
}

/** The window readings of a text's chunks (malformed share, punctuation noise, function-word soup, word salad) into f; true when a window holds Chinese. */
function readWindows(c: Chunks, f: WindowFigures): boolean {
  let cjk = false;
  const sums = new Int32Array(SUMS);
  const judgeWindow = (w: Int32Array) => {
    const n = w[S.N]!;
    const weight = w[S.WEIGHT]!;
    let malformed = w[S.MALFORMED]!;
    let glued = w[S.GLUED]!;
    const func = w[S.FUNC]!;
    const breaks = w[S.BREAKS]!;
    const spaced = w[S.SPACED]!;
    const noisy = w[S.NOISY]!;
    const letterless = w[S.LETTERLESS]!;
    if (w[S.SCRIPTS + SC_CJK]! > 0) cjk = true;
    // letters of two scripts glued are normal where the window's prose is in a script that glues Latin terms
    if (gluesLatin(dominant(w.subarray(S.SCRIPTS)))) {
      malformed += w[S.GLUED_MALFORMED]!;
      glued = 0;
    } else malformed += glued;
    f.windows++;
    // code and data: their chunks are not the writer's words, but letters of two scripts glued are no code either, and
    // the words between them are prose (words run together inside a JSON string left open)
    const code = w[S.CODEISH]! >= 0.3 * weight;
    const prose = weight - w[S.CODEISH]!;
    const share = code ? Math.max(glued / weight, prose >= PROSE_IN_CODE ? w[S.MALFORMED]! / prose : 0) : malformed / weight;
    const at = c.start[w[S.FROM]!]!;
    if (!code && n >= NOISE_MIN_CHUNKS && noisy / (n + letterless) > f.noise) {
      f.noise = noisy / (n + letterless);
      f.noiseAt = at;
    }
    if (share > f.malformed) {
      f.malformed = share;
      f.malformedAt = at;
    }
    if (!code && spaced >= 0.8 * n && n === WINDOW && breaks <= SOUP_BREAKS * n && func / n > f.func) {
      f.func = func / n;
      f.funcAt = at;
    }
    if (!code && spaced >= 0.8 * n && n >= SALAD_MIN_CHUNKS) {
      const fs = func / n;
      const bs = breaks / n;
      addSaladPoint(f.salad, { func: fs, breaks: bs, at });
    }
  };
  if (c.n < WINDOW) {
    if (c.n >= MIN_CHUNKS) judgeWindow(chunkSums(c, 0, c.n, sums.fill(0)));
  } else {
    // the windows overlap by half: each half is summed once, a window is two halves
    const half = WINDOW / 2;
    const prev = new Int32Array(SUMS);
    chunkSums(c, 0, half, prev);
    let a = 0;
    for (; a + WINDOW <= c.n; a += half) {
      const next = chunkSums(c, a + half, a + WINDOW, sums.fill(0));
      for (let k = 0; k < SUMS; k++) prev[k] = prev[k]! + next[k]!;
      prev[S.FROM] = a;
      judgeWindow(prev);
      prev.set(next);
    }
    // the end of the text is a window too, however the windows fell
    if (a - half + WINDOW < c.n) judgeWindow(chunkSums(c, c.n - WINDOW, c.n, sums.fill(0)));
  }
  return cjk;
}
