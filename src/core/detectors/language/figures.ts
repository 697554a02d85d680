/**
 * The language detector's figures: each reading returns its own, and this puts them side by
 * side. Readings never see each other's figures; only the variant reading waits on whether a
 * window held Chinese.
 */
import type { Scan } from '../detector.js';
import { chineseVariant, VARIANT_NAMES } from './chineseVariant.js';
import { type CodeFigures, readCodeChunks } from './randomCodes.js';
import { type EndWordFigures, readEndWords } from './endWords.js';
import { type FencedFigures, readFenced } from './fenced.js';
import { type MarkLineFigures, readMarkLines } from './markLines.js';
import { type ListFigures, readRunOnList } from './runOnList.js';
import { readScripts, type ScriptFigures } from './scripts.js';
import { readWindows, type WindowFigures } from './windows.js';
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
  EndWordFigures &
  ListFigures &
  VariantFigures & {
    /** The readings of what fenced code blocks hold (null when the text has none). */
    fenced: FencedFigures | null;
  };

export function languageFigures(scan: Scan): LanguageFigures {
  const c = readChunks(scan.tokens);
  // the windows cover every chunk: whether any is Chinese (then the variant is read)
  const { cjk, ...windows } = readWindows(c);
  let variant: VariantFigures = { variant: '', variantRun: 0, variantAt: -1 };
  if (cjk) {
    const v = chineseVariant(scan.tokens, scan.text());
    variant = { variant: VARIANT_NAMES[v.variant] ?? '', variantRun: v.run, variantAt: v.at };
  }
  return {
    ...windows,
    // what fenced code blocks hold, read apart: code, or the words or the noise a collapse inside a block turned into
    fenced: c.fenced ? readFenced(scan.tokens) : null,
    ...readScripts(c),
    ...variant,
    ...readRunOnList(c),
    ...readEndWords(scan.text(), c),
    ...readMarkLines(scan.tokens),
    ...readCodeChunks(scan.text(), c),
  };
}
