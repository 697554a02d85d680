/** STUB: being written. */
import type { Finding } from '../finding.js';
import type { Detector, JudgeContext, TextView } from './detector.js';

export interface CyclingThresholds {}

export const CYCLING_DEFAULTS: Readonly<CyclingThresholds> = Object.freeze({});

export interface CyclingFigures {}

export function createCyclingDetector(): Detector<CyclingFigures> {
  return {
    name: 'cycling',
    push(_delta: string, _offset: number): void {},
    figures(_view: TextView): CyclingFigures {
      return {};
    },
    judge(_f: CyclingFigures, _ctx: JudgeContext): Finding[] {
      return [];
    },
  };
}
