/** STUB: being written. */
import type { Finding } from '../finding.js';
import type { Detector, JudgeContext, TextView } from './detector.js';

export interface GarbleThresholds {}

export const GARBLE_DEFAULTS: Readonly<GarbleThresholds> = Object.freeze({});

export interface GarbleFigures {}

export function createGarbleDetector(): Detector<GarbleFigures> {
  return {
    name: 'garble',
    push(_delta: string, _offset: number): void {},
    figures(_view: TextView): GarbleFigures {
      return {};
    },
    judge(_f: GarbleFigures, _ctx: JudgeContext): Finding[] {
      return [];
    },
  };
}
