/**
 * Where each threshold sits beside what healthy text does: for every statistic a detector
 * judges, its distribution over healthy texts (the ok halves of the three real corpora and the
 * healthy synthetic texts, "model outputs", and apart from them the real files of this machine
 * that the realworld bench reads), each read whole and cut at random points as a stream may be;
 * the maximum and the 99.9th percentile beside the threshold; and how many of the degenerate
 * real texts the statistic alone catches. Then the count of numeric thresholds in src/core,
 * declared and inline, beside the previous release.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPACED, saladUnder } from '../src/core/detectors/language/language.js';
import type { Figures } from '../src/core/detectors/registry.js';
import { Engine } from '../src/core/engine.js';
import { DEFAULT_THRESHOLDS, THRESHOLD_TABLE } from '../src/core/thresholds.js';
import { freshCorpus, holdoutCorpus, tuningCorpus } from '../test/corpus/generate.js';
import { developmentCorpusDirs, loadRealCorpus } from '../test/corpus/realCorpus.js';
import { repoRoot } from '../test/helpers/repoRoot.js';
import { realWorldFiles } from './realWorld.js';
import { PREVIOUS_RELEASE } from './releases.js';

const T = DEFAULT_THRESHOLDS;
const LANGUAGE_UNITS = new Set(['word', 'phrase', 'sentence', 'line', 'paragraph']);
const STRUCTURAL = new Set(['punctuation', 'tag', 'char']);

/** The live loop's copies with no token changed, for a loop of words that could be certain: of a cell of a table's row or not (a value aside). */
function cleanCopies(f: Figures, cell: boolean): number | null {
  const l = f.repetition.live;
  return l && !l.near && !l.value && l.cell === cell && !STRUCTURAL.has(l.unit) && l.similarity >= 0.95 && l.newPerCopy <= T.loopNewPerCopy
    ? l.exactCopies
    : null;
}
/** Cut points read per healthy text besides the whole. */
const CUTS = 4;

interface Statistic {
  /** The threshold it is judged by. */
  threshold: keyof typeof T;
  /** What is measured, for the table. */
  what: string;
  /** The statistic of a text's figures; null when it does not apply. */
  of(f: Figures): number | null;
  /** Lower is worse (the threshold is a minimum healthy text stays above). */
  lowIsBad?: boolean;
}

const loop = (f: Figures) => f.repetition.tail;
/** The copies at the end when they are 1.5+ copies of a unit of words and no table's rows (what every large-copies row reads); else null. */
const largeCopies = (f: Figures) => {
  const c = f.repetition.copies;
  return c.copies >= T.largeCopies && c.words && !c.table ? c : null;
};
const STATISTICS: Statistic[] = [
  {
    threshold: 'tailLoopCopies',
    what: 'copies of a short unit at the end (stuck)',
    of: (f) => {
      const l = loop(f);
      return l && LANGUAGE_UNITS.has(l.unit) && l.periodTokens < T.longLoopTokens && l.newPerCopy <= T.loopNewPerCopy ? l.copies : null;
    },
  },
  {
    threshold: 'nearLoopNewShare',
    what: 'new tokens per copy over its tokens, of a loop of words at the end with the copies that fail (lowest)',
    lowIsBad: true,
    of: (f) => {
      const l = loop(f);
      if (!l?.words || l.newPerCopy <= T.loopNewPerCopy) return null;
      const need = (l.periodTokens >= T.longLoopTokens ? T.longLoopCopies : T.tailLoopCopies) + (l.near ? 1 : 0);
      return l.copies >= need ? l.newPerCopy / l.periodTokens : null;
    },
  },
  {
    threshold: 'longLoopCopies',
    what: 'copies of a long unit (24+ tokens) at the end',
    of: (f) => {
      const l = loop(f);
      return l && LANGUAGE_UNITS.has(l.unit) && l.periodTokens >= T.longLoopTokens && l.newPerCopy <= T.loopNewPerCopy ? l.copies : null;
    },
  },
  {
    threshold: 'largeCopiesCoverage',
    what: 'share of the output that 1.5+ copies of a large unit of words (160+ normalised chars, no table) cover at the end',
    of: (f) => {
      const c = largeCopies(f);
      return c && c.unitChars >= T.largeUnitChars ? c.coverage : null;
    },
  },
  {
    threshold: 'largeCopiesCoverage',
    what: 'share of the output that 1.5+ copies of a unit of words with no line break in it that writes 100+ letters (lineUnitChars, a Han character 2.5; no table) cover at the end',
    of: (f) => {
      const c = largeCopies(f);
      return c && c.unitLetters >= T.lineUnitChars && !c.lines ? c.coverage : null;
    },
  },
  {
    threshold: 'largeCopiesCoverage',
    what: 'the same with a line break in the unit allowed (a unit of 100+ letters: the refrain a song says after each verse)',
    of: (f) => {
      const c = largeCopies(f);
      return c && c.unitLetters >= T.lineUnitChars ? c.coverage : null;
    },
  },
  {
    threshold: 'lineUnitChars',
    what: 'letters a unit of words with no line break in it writes (a Han character, kana or Hangul syllable 2.5) when 1.5+ copies of it cover 60%+ of the output at the end (no table)',
    of: (f) => {
      const c = largeCopies(f);
      return c && c.coverage >= T.largeCopiesCoverage && !c.lines ? c.unitLetters : null;
    },
  },
  {
    threshold: 'largeCopies',
    what: 'normalised copies of a large unit of words (160+ chars, no table) covering 60%+ of the output',
    of: (f) => {
      const c = f.repetition.copies;
      return c.unitChars >= T.largeUnitChars && c.coverage >= T.largeCopiesCoverage && c.words && !c.table ? c.copies : null;
    },
  },
  {
    threshold: 'largeCopies',
    what: 'copies with their numbers as written of a block of 500+ normalised chars of units of one template (rows whose figures differ), words or a table',
    of: (f) => {
      const c = f.repetition.copies;
      return ((c.words && c.letters >= 0.5) || c.table) && c.blockChars >= T.blockUnitChars ? c.blockCopies : null;
    },
  },
  {
    threshold: 'exactCopies',
    what: 'copies as written (numbers kept) at the end of a unit of words of 100+ normalised chars (half letters, no table), any coverage',
    of: (f) => {
      const c = f.repetition.copies;
      return c.words && c.letters >= 0.5 && !c.table && c.unitChars >= T.exactUnitChars ? c.exactCopies : null;
    },
  },
  {
    threshold: 'rewrappedCopies',
    what: 'copies as written at the end of a unit of words of 60+ normalised chars (half letters, no table) wrapped at other places in each copy, any coverage',
    of: (f) => {
      const c = f.repetition.copies;
      return c.words && c.letters >= 0.5 && !c.table && c.rewrapped && c.unitChars >= T.rewrappedUnitChars ? c.exactCopies : null;
    },
  },
  {
    threshold: 'blockUnitChars',
    what: 'normalised chars of a unit of words (half letters) or of rows of a table said 1.5+ times as written at the end, any coverage',
    of: (f) => {
      const c = f.repetition.copies;
      return ((c.words && c.letters >= 0.5) || c.table) && c.exactCopies >= T.largeCopies ? c.unitChars : null;
    },
  },
  {
    threshold: 'endCopiesCoverage',
    what: 'share of the output that 3+ copies as written of a unit of words of 6+ normalised chars (half letters, no table) cover at the end',
    of: (f) => {
      const c = f.repetition.copies;
      return c.words && c.letters >= 0.5 && !c.table && c.unitChars >= T.endUnitChars && c.exactCopies >= T.endCopies ? c.coverage : null;
    },
  },
  {
    threshold: 'endCopies',
    what: 'copies as written at the end of a unit of words of 6+ normalised chars (half letters, no table) covering 30%+ of the output',
    of: (f) => {
      const c = f.repetition.copies;
      return c.words && c.letters >= 0.5 && !c.table && c.unitChars >= T.endUnitChars && c.coverage >= T.endCopiesCoverage
        ? c.exactCopies
        : null;
    },
  },
  {
    threshold: 'chainLinks',
    what: 'paragraphs of words at the end that each hold 80% of the one before, longer',
    of: (f) => (f.repetition.chain.words ? f.repetition.chain.links : null),
  },
  {
    threshold: 'slotLoopCopies',
    what: 'copies back to back at the end of a unit of format placeholders alone (%s|, %-10s, {})',
    of: (f) => (f.repetition.tail?.slots ? f.repetition.tail.copies : null),
  },
  {
    threshold: 'countLoopCoverage',
    what: 'share of the output covered by a list of numbers at the end (one number and its mark: 1, 2, 3, or 0, 0, 0,) that the text breaks off in, where its copies would fail as a loop but for this',
    of: (f) => {
      const l = f.repetition.tail;
      if (!l?.count || !l.open) return null;
      const stuck = l.newPerCopy <= T.loopNewPerCopy || (l.words && l.newPerCopy <= T.nearLoopNewShare * l.periodTokens);
      const need = (l.periodTokens >= T.longLoopTokens ? T.longLoopCopies : T.tailLoopCopies) + (l.near ? 1 : 0);
      return stuck && l.copies >= need ? l.coverage : null;
    },
  },
  {
    threshold: 'growingItems',
    what: 'items at the end of a list that each are the one before with 2+ chars added (read where they cover half the output)',
    of: (f) => (f.repetition.growing.coverage >= 0.5 ? f.repetition.growing.items : null),
  },
  {
    threshold: 'normalisedLoopCopies',
    what: 'normalised copies at the end of a unit of words (half letters, no table), any size',
    of: (f) => {
      const c = f.repetition.copies;
      return c.words && c.letters >= 0.5 && !c.table ? c.copies : null;
    },
  },
  {
    threshold: 'wholeLoopCoverage',
    what: 'share of the output that 2.3+ normalised copies of a unit half letters (no table) cover',
    of: (f) => {
      const c = f.repetition.copies;
      return c.copies >= T.wholeLoopCopies && c.letters >= 0.5 && !c.table ? c.coverage : null;
    },
  },
  {
    threshold: 'returnsCopies',
    what: 'returns to the same material at the end, / (1 + novelty/0.07)',
    of: (f) => {
      const l = loop(f);
      return l && !STRUCTURAL.has(l.unit) ? l.returns / (1 + l.novelty / T.returnsNovelty) : null;
    },
  },
  {
    threshold: 'recoveredCopies',
    what: 'copies of a prose loop the text moves on from',
    of: (f) => {
      const l = f.repetition.recovered;
      return l?.prose && l.similarity >= 0.95 && l.newPerCopy <= T.loopNewPerCopy ? l.copies : null;
    },
  },
  {
    threshold: 'wholeCycleReturns',
    what: 'returns to the same words of a cycle of words that is most of the output and brings nothing new',
    of: (f) => {
      const l = loop(f);
      return l && !STRUCTURAL.has(l.unit) && l.novelty < T.returnsNovelty && l.wordCycle >= T.wholeCycleCoverage ? l.returns : null;
    },
  },
  {
    threshold: 'replayShare',
    what: 'share of the prose lines of the last third of an output of replayMinChars (7,000)+ chars of words (no table) in 32-char normalised shingles said before',
    of: (f) => {
      const r = f.repetition.replay;
      return r.at >= 0 && f.repetition.chars >= T.replayMinChars && r.words && !r.table ? r.share : null;
    },
  },
  {
    threshold: 'restatedShare',
    what: 'share of the last 512 words of prose that repeat an 8-word sequence said twice before',
    of: (f) => (f.repetition.restated.at >= 0 ? f.repetition.restated.share : null),
  },
  {
    threshold: 'floodChars',
    what: 'chars of a punctuation flood at the end',
    of: (f) => {
      const l = loop(f);
      return l && l.unit === 'punctuation' && !l.rule && l.copies >= T.tailLoopCopies ? l.end - l.onset : null;
    },
  },
  {
    threshold: 'ruleChars',
    what: 'chars of rules, borders or tags at the end',
    of: (f) => {
      const l = loop(f);
      return l && (l.unit === 'tag' || (l.unit === 'punctuation' && l.rule)) && l.copies >= T.tailLoopCopies ? l.end - l.onset : null;
    },
  },
  {
    threshold: 'floodChars',
    what: 'a punctuation flood at the end as the live check reads it, its whitespace runs one char each, / 4 (4x floodChars is certain)',
    of: (f) => {
      const l = f.repetition.live;
      return l && l.unit === 'punctuation' && !l.rule && !l.closes && l.exactCopies >= T.tailLoopCopies ? l.markChars / 4 : null;
    },
  },
  {
    threshold: 'ruleChars',
    what: 'rules, borders or tags at the end as the live check reads them, their whitespace runs one char each, / 4 (4x ruleChars is certain)',
    of: (f) => {
      const l = f.repetition.live;
      return l && (l.unit === 'tag' || (l.unit === 'punctuation' && l.rule)) && l.exactCopies >= T.tailLoopCopies ? l.markChars / 4 : null;
    },
  },
  {
    threshold: 'wholeLoopCopies',
    what: 'copies of a loop that is 80%+ of the output',
    of: (f) => {
      const l = loop(f);
      return l && LANGUAGE_UNITS.has(l.unit) && l.coverage >= T.wholeLoopCoverage && l.newPerCopy <= T.loopNewPerCopy ? l.copies : null;
    },
  },
  {
    threshold: 'loopNewPerCopy',
    what: 'new tokens per copy of a loop of 4+ copies at the end (lowest)',
    lowIsBad: true,
    of: (f) => {
      const l = loop(f);
      return l && LANGUAGE_UNITS.has(l.unit) && l.copies >= T.tailLoopCopies ? l.newPerCopy : null;
    },
  },
  {
    threshold: 'certainCopies',
    what: 'copies at the end with no token changed, as the live check reads them',
    of: (f) => cleanCopies(f, false),
  },
  {
    threshold: 'certainLoopTokens',
    what: 'tokens the clean copies of a loop at the end run to, when they are certainCopies or more, as the live check reads them',
    of: (f) => {
      const copies = cleanCopies(f, false);
      return copies !== null && copies >= T.certainCopies ? copies * f.repetition.live!.periodTokens : null;
    },
  },
  {
    threshold: 'certainCellCopies',
    what: 'copies at the end with no token changed of a cell of a table row said again across it, as the live check reads them',
    of: (f) => cleanCopies(f, true),
  },
  {
    threshold: 'certainValueCopies',
    what: 'copies at the end with no token changed of a unit of one number (a value said again), as the live check reads them',
    of: (f) => {
      const l = f.repetition.live;
      return l && !l.near && l.value && !STRUCTURAL.has(l.unit) && l.similarity >= 0.95 ? l.exactCopies : null;
    },
  },
  {
    threshold: 'gluedFloodChars',
    what: 'chars of a unit glued to itself at the end (underscores aside)',
    of: (f) => (f.glued.rule ? 0 : f.glued.chars),
  },
  { threshold: 'gluedRuleChars', what: 'chars of underscores glued at the end', of: (f) => (f.glued.rule ? f.glued.chars : 0) },
  { threshold: 'floodItemShare', what: 'share of 24 words in a row that are one char run 8+ times', of: (f) => f.glued.items },
  { threshold: 'whitespaceRunFail', what: 'longest whitespace run', of: (f) => f.whitespace.longestRun },
  { threshold: 'whitespaceRunEndFail', what: 'whitespace run ending the text', of: (f) => f.whitespace.trailingRun },
  {
    threshold: 'whitespaceShareFail',
    what: 'share of whitespace (32+ chars)',
    of: (f) => (f.whitespace.chars >= 32 ? f.whitespace.spaceChars / f.whitespace.chars : null),
  },
  {
    threshold: 'marksOnlyBlankLines',
    what: 'blank lines of an output of marks alone (no letter or digit)',
    of: (f) => f.whitespace.marksOnlyBlankLines,
  },
  {
    threshold: 'blankLineShareFail',
    what: 'share of the lines that are blank, of an output of up to 4,096 chars with 4+ blank lines (its ends trimmed)',
    of: (f) => f.whitespace.blankLineShare,
  },
  {
    threshold: 'stutterShare',
    what: 'chunks doubling a word in a window, each word for two at most',
    of: (f) => f.stutter.share,
  },
  { threshold: 'specialTokensFail', what: 'template tokens outside code', of: (f) => f.special_tokens.specialTokens },
  { threshold: 'brokenTokensFail', what: 'pad, unk or byte tokens glued into text', of: (f) => f.special_tokens.brokenTokens },
  { threshold: 'oddCharsFail', what: 'broken chars', of: (f) => f.special_tokens.oddChars },
  { threshold: 'newTurnsFail', what: "a template's instruction headers after a response header", of: (f) => f.special_tokens.newTurns },
  { threshold: 'malformedShare', what: 'malformed share of a window of prose', of: (f) => f.language.malformed },
  {
    threshold: 'malformedShare',
    what: 'malformed share of a window inside fenced code blocks',
    of: (f) => (f.language.fenced ? f.language.fenced.malformed : null),
  },
  {
    threshold: 'noiseShare',
    what: 'share of chunks with punctuation where no language puts it, in a window of prose',
    of: (f) => f.language.noise,
  },
  {
    threshold: 'singleLetterShare',
    what: 'share of chunks of one lower-case Latin or Cyrillic letter in a full window of prose',
    of: (f) => f.language.singleLetters,
  },
  {
    threshold: 'shortPieceShare',
    what: 'share of chunks of two or three lower-case letters, no function word, in a full window of prose with few breaks',
    of: (f) => f.language.shortPieces,
  },
  {
    threshold: 'codeChunkShare',
    what: 'share of 24 chunks in a row that are new random codes (capitals and digits, or chars of every class in turn)',
    of: (f) => f.language.codeChunks,
  },
  {
    threshold: 'shortCodeLineShare',
    what: 'share of the lines of a text of under 40 lines that are one new random code each (3 of them at least)',
    of: (f) => (f.language.shortCodeLines >= 3 ? f.language.shortCodeShare : 0),
  },
  {
    threshold: 'shortNumberMarkLineShare',
    what: 'share of the lines of a text of under 40 lines that hold numbers and runs of one mark or marks alone (2 lines of numbers and runs, 3 in all, at least)',
    of: (f) => (f.language.shortNumberMarkLines >= 2 && f.language.shortMarkedLines >= 3 ? f.language.shortMarkedShare : 0),
  },
  { threshold: 'markLineShare', what: 'share of 40 lines in a row that hold marks alone', of: (f) => f.language.markLines },
  {
    threshold: 'oddScriptWords',
    what: 'words of prose whose Latin and Cyrillic letters no language orders so (Cyrillic before lower-case Latin, or back and forth)',
    of: (f) => f.language.oddScriptWords,
  },
  {
    threshold: 'shortMarkLineShare',
    what: 'share of the lines of a text of 3-39 lines that hold marks alone (no letter, digit or bracket)',
    of: (f) => (f.language.shortLines >= 3 ? f.language.shortMarkOnly : null),
  },
  { threshold: 'soupFunctionShare', what: 'function-word share of a full window of prose with few breaks', of: (f) => f.language.func },
  {
    threshold: 'variantSwitchMarks',
    what: 'characters in a row of the other Chinese variant',
    of: (f) => (f.language.variant ? f.language.variantRun : null),
  },
  {
    threshold: 'saladFunctionShare',
    what: 'function words in a run-on window (lowest)',
    lowIsBad: true,
    of: (f) => saladUnder(f.language.salad, T.saladBreakShare)?.func ?? null,
  },
  {
    threshold: 'listItems',
    what: 'items of a run-on line that repeat 40%+',
    of: (f) => (f.language.listItems > 0 && f.language.listRepeats / f.language.listItems >= T.listRepeatShare ? f.language.listItems : 0),
  },
  {
    threshold: 'listItems',
    what: 'items of a run-on line inside fenced code blocks that repeat 40%+',
    of: (f) => {
      const g = f.language.fenced;
      return g ? (g.listItems > 0 && g.listRepeats / g.listItems >= T.listRepeatShare ? g.listItems : 0) : null;
    },
  },
  {
    threshold: 'wordLineFunctionRepeats',
    what: 'function words said again in a run of one-word lines (8+ function-word lines, under 80% of it)',
    of: (f) =>
      f.language.wordLineFunctions >= T.wordLineFunctions && f.language.wordLineFunctions < T.wordLineFunctionShare * f.language.wordLines
        ? f.language.wordLineFunctionRepeats
        : 0,
  },
  {
    threshold: 'saladEndWords',
    what: 'words strung at the end after a sentence, the first in lower case, no function word or break',
    of: (f) => (f.language.endWords > 0 ? f.language.endWords : null),
  },
  {
    threshold: 'switchLetters',
    what: 'letters of another script (out of Latin, into CJK)',
    of: (f) =>
      f.language.script === 'latin' && ['cjk', 'hangul', 'thai'].includes(f.language.switchScript) ? f.language.switchLetters : null,
  },
  {
    threshold: 'switchLettersAlphabet',
    what: 'letters of another alphabet written with spaces',
    of: (f) => (SPACED.has(f.language.script) && SPACED.has(f.language.switchScript) ? f.language.switchLetters : null),
  },
  {
    threshold: 'switchLettersIntoLatin',
    what: 'letters of Latin prose in a CJK, Hangul or Thai text',
    of: (f) =>
      !SPACED.has(f.language.script) && f.language.script !== 'none' && f.language.switchScript === 'latin'
        ? f.language.switchLetters
        : null,
  },
];

function figuresOf(text: string): Figures {
  const e = new Engine(text.length);
  e.push(text);
  return e.figures().detectors;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

interface Column {
  values: number[];
  worst: { value: number; who: string };
}

function column(): Column {
  return { values: [], worst: { value: -Infinity, who: '' } };
}

function add(c: Column, value: number, who: string, low: boolean): void {
  c.values.push(value);
  const v = low ? -value : value;
  if (v > c.worst.value) c.worst = { value: v, who };
}

export async function runThresholdsBench(): Promise<void> {
  let seed = 17;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const real = developmentCorpusDirs().flatMap((d) =>
    (loadRealCorpus(d) ?? []).map((s) => ({ ...s, name: `${d.split('/').pop()}/${s.name}` })),
  );
  const synthetic = [...tuningCorpus(), ...holdoutCorpus(), ...freshCorpus()].filter((s) => s.label === 'healthy');
  const modelOutputs = [
    ...real.filter((s) => s.label === 'ok').map((s) => ({ name: s.name, text: s.text })),
    ...synthetic.map((s) => ({ name: s.name, text: s.text })),
  ];
  const files = realWorldFiles().map((f) => ({ name: f.name, text: f.text }));
  const cols = STATISTICS.map(() => ({ model: column(), files: column() }));
  const read = (texts: Array<{ name: string; text: string }>, which: 'model' | 'files') => {
    for (const t of texts) {
      const variants: Array<[string, string]> = [[t.name, t.text]];
      for (let k = 0; k < CUTS; k++) {
        const at = Math.floor(rand() * t.text.length);
        variants.push([`${t.name} cut at ${at}`, t.text.slice(0, at)]);
      }
      for (const [who, text] of variants) {
        const f = figuresOf(text);
        STATISTICS.forEach((s, i) => {
          const v = s.of(f);
          if (v !== null) add(cols[i]![which], v, who, s.lowIsBad === true);
        });
      }
    }
  };
  read(modelOutputs, 'model');
  read(files, 'files');
  const degenerate = real.filter((s) => s.label === 'degenerate').map((s) => figuresOf(s.text));
  console.log(
    `healthy texts: ${modelOutputs.length} model outputs (the three real corpora's ok texts, the synthetic healthy sets) and ${files.length} real files of this machine, each whole and cut at ${CUTS} random points; caught = degenerate real texts (${degenerate.length}) the statistic alone puts past its threshold`,
  );
  const fmtv = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(3));
  for (const [i, s] of STATISTICS.entries()) {
    const limit = T[s.threshold];
    const m = cols[i]!.model;
    const fl = cols[i]!.files;
    const sorted = (c: Column) => [...c.values].sort((a, b) => a - b);
    const max = (c: Column) => (c.values.length === 0 ? '-' : fmtv(s.lowIsBad ? -c.worst.value : c.worst.value));
    const p999 = (c: Column) => (c.values.length === 0 ? '-' : fmtv(percentile(sorted(c), s.lowIsBad ? 0.001 : 0.999)));
    const past = (v: number | null) => v !== null && (s.lowIsBad ? v <= limit : v >= limit);
    const caught = degenerate.filter((f) => past(s.of(f))).length;
    const filesPast = fl.values.filter((v) => past(v)).length;
    console.log(`  ${s.threshold} = ${limit}  (${s.what})`);
    console.log(
      `    model outputs: ${s.lowIsBad ? 'min' : 'max'} ${max(m)} (${m.worst.who.slice(0, 70)}), ${s.lowIsBad ? 'p0.1' : 'p99.9'} ${p999(m)}, n ${m.values.length}`,
    );
    console.log(
      `    real files:    ${s.lowIsBad ? 'min' : 'max'} ${max(fl)} (${fl.worst.who.slice(0, 70)}), ${s.lowIsBad ? 'p0.1' : 'p99.9'} ${p999(fl)}, past the threshold ${filesPast} of ${fl.values.length}`,
    );
    console.log(`    caught alone: ${caught} of ${degenerate.length} degenerate real texts`);
  }
  countThresholds();
}

/** Module-level numeric constants ("const NAME = 12") of a source. */
function inlineConstants(src: string): number {
  return (src.match(/^(?:export )?const [A-Z][A-Z0-9_]* = -?[0-9][0-9_.e]*;/gm) ?? []).length;
}

function coreFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? coreFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function countThresholds(): void {
  const root = repoRoot();
  const core = join(root, 'src', 'core');
  const now = coreFiles(core).reduce((n, f) => n + inlineConstants(readFileSync(f, 'utf8')), 0);
  const declared = Object.keys(THRESHOLD_TABLE).length;
  let before = '';
  try {
    const list = execFileSync('git', ['-C', root, 'ls-tree', '-r', '--name-only', PREVIOUS_RELEASE, 'src/core'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    let inline = 0;
    let thresholdKeys = 0;
    for (const f of list) {
      const src = execFileSync('git', ['-C', root, 'show', `${PREVIOUS_RELEASE}:${f}`], { encoding: 'utf8', maxBuffer: 16 << 20 });
      inline += inlineConstants(src);
      // declared thresholds: the keys of the DEFAULTS tables ("  name: 12,")
      for (const block of src.matchAll(/_DEFAULTS[^=]*= Object\.freeze\(\{([\s\S]*?)\}\)/g))
        thresholdKeys += (block[1]!.match(/^\s+[a-z][A-Za-z0-9]*: -?[0-9]/gm) ?? []).length;
      if (f.endsWith('thresholds.ts'))
        for (const block of src.matchAll(/DEFAULT_THRESHOLDS[^=]*= Object\.freeze\(\{([\s\S]*?)\}\)/g))
          thresholdKeys += (block[1]!.match(/^\s+[a-z][A-Za-z0-9]*: -?[0-9]/gm) ?? []).length;
    }
    before = `; ${PREVIOUS_RELEASE}: ${thresholdKeys} declared, ${inline} inline, ${thresholdKeys + inline} in all`;
  } catch {
    before = `; ${PREVIOUS_RELEASE} is not in this checkout's history`;
  }
  console.log(`numeric thresholds in src/core: ${declared} declared, ${now} inline module constants, ${declared + now} in all${before}`);
}
