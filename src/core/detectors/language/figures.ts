/**
 * The language detector's figures: each reading returns its own, and this puts them side by
 * side. Readings never see each other's figures; only the variant reading waits on whether a
 * window held Chinese.
 */
import type { Scan } from '../detector.js';
import { chineseVariant, VARIANT_NAMES } from './chineseVariant.js';
import { withoutCompounds } from './compounds.js';
import { type CodeFigures, readCodeChunks } from './randomCodes.js';
import { type EndWordFigures, readEndWords } from './endWords.js';
import { type FencedFigures, readFenced } from './fenced.js';
import { type MarkLineFigures, readMarkLines } from './markLines.js';
import { type ListFigures, readRunOnList } from './runOnList.js';
import { readScripts, type ScriptFigures } from './scripts.js';
import { readScriptOrder, type ScriptOrderFigures } from './scriptOrder.js';
import { identifySalad } from './salad.js';
import { readWindows, type WindowFigures } from './windows.js';
import { readWordLines, type WordLineFigures } from './wordLines.js';
import { readChunks } from './wordShapes.js';

export interface VariantFigures {
  /** Chinese: the variant the text opens in ('' when none), and the longest run of the other one's characters. */
  variant: string;
  variantRun: number;
  variantAt: number;
}

export type LanguageFigures = WindowFigures &
  ScriptFigures &
  CodeFigures &
  MarkLineFigures &
  ScriptOrderFigures &
  EndWordFigures &
  ListFigures &
  WordLineFigures &
  VariantFigures & {
    /** The readings of what fenced code blocks hold (null when the text has none). */
    fenced: FencedFigures | null;
  };

export function languageFigures(scan: Scan): LanguageFigures {
  const c = readChunks(scan.tokens, scan.text());
  // each reading's figures are copied field by field into one literal: spreading nine objects cost more than the
  // readings themselves on a short text
  const w = readWindows(c);
  // a window with almost no function words may be prose of a language the lists do not cover: its language is asked
  identifySalad(w.salad, scan.text());
  const s = readScripts(c, scan.text());
  const l = readRunOnList(c);
  const o = readWordLines(c, scan.text());
  const e = readEndWords(scan.text(), c);
  const m = readMarkLines(scan.tokens, scan.text());
  const so = readScriptOrder(scan.tokens, scan.text());
  const k = readCodeChunks(scan.text(), c);
  // the windows cover every chunk: whether any is Chinese (then the variant is read)
  const v = w.cjk ? chineseVariant(scan.tokens, scan.text()) : null;
  return {
    windows: w.windows,
    // the long words of a language that writes compounds as one word are its words, not words run together
    malformed: withoutCompounds(w, scan.text()),
    malformedAt: w.malformedAt,
    malformedLong: w.malformedLong,
    salad: w.salad,
    // what fenced code blocks hold, read apart: code, or the words or the noise a collapse inside a block turned into
    fenced: c.fenced ? readFenced(scan.tokens, scan.text()) : null,
    noise: w.noise,
    noiseAt: w.noiseAt,
    singleLetters: w.singleLetters,
    singleLettersAt: w.singleLettersAt,
    shortPieces: w.shortPieces,
    shortPiecesAt: w.shortPiecesAt,
    func: w.func,
    funcAt: w.funcAt,
    codeChunks: k.codeChunks,
    codeChunksAt: k.codeChunksAt,
    shortCodeLines: k.shortCodeLines,
    shortCodeShare: k.shortCodeShare,
    shortCodeAt: k.shortCodeAt,
    markLines: m.markLines,
    markLinesAt: m.markLinesAt,
    shortLines: m.shortLines,
    shortMarkOnly: m.shortMarkOnly,
    shortMarkAt: m.shortMarkAt,
    shortNumberMarkLines: m.shortNumberMarkLines,
    shortMarkedLines: m.shortMarkedLines,
    shortMarkedShare: m.shortMarkedShare,
    shortNumberMarkAt: m.shortNumberMarkAt,
    oddScriptWords: so.oddScriptWords,
    oddScriptAt: so.oddScriptAt,
    endWords: e.endWords,
    endWordsAt: e.endWordsAt,
    listItems: l.listItems,
    listRepeats: l.listRepeats,
    listAt: l.listAt,
    wordLines: o.wordLines,
    wordLineFunctions: o.wordLineFunctions,
    wordLineFunctionRepeats: o.wordLineFunctionRepeats,
    wordLinesAt: o.wordLinesAt,
    script: s.script,
    switchScript: s.switchScript,
    switchLetters: s.switchLetters,
    switchAt: s.switchAt,
    variant: v ? (VARIANT_NAMES[v.variant] ?? '') : '',
    variantRun: v ? v.run : 0,
    variantAt: v ? v.at : -1,
  };
}
