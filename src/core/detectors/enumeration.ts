/** STUB: being written. */
import type { Finding } from '../finding.js';
import type { Detector, JudgeContext, TextView } from './detector.js';

export interface EnumerationThresholds {}

export const ENUMERATION_DEFAULTS: Readonly<EnumerationThresholds> = Object.freeze({});

export interface EnumerationFigures {}

export function createEnumerationDetector(): Detector<EnumerationFigures> {
  return {
    name: 'enumeration',
    push(_delta: string, _offset: number): void {},
    figures(_view: TextView): EnumerationFigures {
      return {};
    },
    judge(_f: EnumerationFigures, _ctx: JudgeContext): Finding[] {
      return [];
    },
  };
}
