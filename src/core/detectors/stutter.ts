/**
 * Stutter: every word said twice ("I I think think the the answer answer"), the signature of
 * a broken KV cache that repeats each token. A doubled word happens in healthy text ("that
 * that", "had had", "na na" in a song), but not many different words doubled in one stretch.
 * Read over windows of words: the share of words equal to the word before them, and how many
 * distinct words are doubled.
 */
import { F_CODE, F_LINE, F_NUM, K_PUNCT, K_WORD, K_SOLO, KIND_MASK } from '../text/tokens.js';
import type { Detector, Scan, Values } from './detector.js';
import { type Finding, finding, fmt } from './finding.js';

export const STUTTER_KINDS = ['stutter'] as const;
export type StutterKind = (typeof STUTTER_KINDS)[number];

const THRESHOLDS = {
  stutterShare: {
    value: 0.3,
    why: 'share of the words of a 64-word window equal to the word before them that fails, with stutterWords distinct doubled words. Healthy windows reach 0.14 (songs; npm run bench -- thresholds); stutter doubles 0.5 of them',
  },
  stutterWords: {
    value: 8,
    why: 'distinct words doubled in that window: a chorus doubles one or two ("na na", "oh oh"), stutter every word',
  },
} as const;

/** Words per window; windows slide by half of it. */
const WINDOW = 64;

export interface StutterFigures {
  /** Highest share of doubled words in a window, its distinct doubled words, and where it starts (-1 when no window). */
  share: number;
  distinct: number;
  start: number;
}

/** Fewest words judged (a whole short output). */
const MIN_WORDS = 16;

function windowOf(ring: Int32Array, size: number, seen: Set<number>, start: number): StutterFigures {
  seen.clear();
  let doubled = 0;
  for (let j = 0; j < size; j++) {
    if (ring[j]! >= 0) {
      doubled++;
      seen.add(ring[j]!);
    }
  }
  return { share: doubled / size, distinct: seen.size, start };
}

export const stutter = {
  name: 'stutter' as const,
  kinds: STUTTER_KINDS,
  thresholds: THRESHOLDS,
  figures(scan: Scan): StutterFigures {
    const t = scan.tokens;
    const ring = new Int32Array(WINDOW);
    const at = new Int32Array(WINDOW);
    const seen = new Set<number>();
    let words = 0;
    let best: StutterFigures = { share: 0, distinct: 0, start: -1 };
    let prev = -1;
    for (let i = 0; i < t.n; i++) {
      const info = t.info[i]!;
      const k = info & KIND_MASK;
      if (k === K_PUNCT) {
        // punctuation between two words breaks the pair ("0, 0" in data is no stutter), but a stutter keeps its commas
        if (t.id[i] !== 0x2c) prev = -1;
        continue;
      }
      if ((k !== K_WORD && k !== K_SOLO) || info & (F_CODE | F_NUM)) {
        prev = -1;
        continue;
      }
      const id = t.id[i]!;
      ring[words % WINDOW] = id === prev && !(info & F_LINE) ? id : -1;
      at[words % WINDOW] = t.start[i]!;
      prev = id;
      words++;
      if (words >= WINDOW && words % (WINDOW / 2) === 0) {
        const w = windowOf(ring, WINDOW, seen, at[words % WINDOW]!);
        if (w.share > best.share) best = w;
      }
    }
    // a short output is one window
    if (words < WINDOW && words >= MIN_WORDS) best = windowOf(ring, words, seen, at[0]!);
    return best;
  },
  judge(f: StutterFigures, t: Values<typeof THRESHOLDS>): Array<Finding<StutterKind>> {
    if (f.share < t.stutterShare || f.distinct < t.stutterWords) return [];
    return [finding('stutter', 'fail', f.start, `${fmt(100 * f.share, 0)}% of the words of a stretch repeat the word before them (${f.distinct} different words doubled)`)];
  },
} satisfies Detector<StutterFigures, StutterKind, typeof THRESHOLDS>;
