/** STUB: being written. */
import type { Finding } from '../finding.js';
import type { Detector, JudgeContext, TextView } from './detector.js';

export interface TailRepeatThresholds {}

export const TAIL_REPEAT_DEFAULTS: Readonly<TailRepeatThresholds> = Object.freeze({});

export interface TailRepeatFigures {}

export function createTailRepeatDetector(): Detector<TailRepeatFigures> {
  return {
    name: 'tailRepeat',
    push(_delta: string, _offset: number): void {},
    figures(_view: TextView): TailRepeatFigures {
      return {};
    },
    judge(_f: TailRepeatFigures, _ctx: JudgeContext): Finding[] {
      return [];
    },
  };
}
