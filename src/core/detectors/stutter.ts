/**
 * Stutter: every word said twice ("I I think think the the answer answer", `team: team:`),
 * the signature of a broken KV cache that repeats each token. A doubled word happens in
 * healthy text ("that that", "had had", "na na" in a song), but not many different words
 * doubled in one stretch. Read over windows of whitespace-delimited chunks: the share of
 * chunks equal to the chunk before them, and how many distinct chunks are doubled.
 */
import { F_LINE, F_NUM, F_SPACE, K_PUNCT, KIND_MASK } from '../text/tokens.js';
import type { Detector, Scan, Values } from './detector.js';
import { type Finding, finding, fmt } from './finding.js';

export const STUTTER_KINDS = ['stutter'] as const;
export type StutterKind = (typeof STUTTER_KINDS)[number];

const THRESHOLDS = {
  stutterShare: {
    value: 0.3,
    why: 'share of the chunks of a 64-chunk window equal to the chunk before them that fails, with stutterWords distinct doubled chunks. Healthy windows reach 0.14 (songs; npm run bench -- thresholds); stutter doubles 0.3-0.5 of them',
  },
  stutterWords: {
    value: 8,
    why: 'distinct chunks doubled in that window: a chorus doubles one or two ("na na", "oh oh"), stutter every word',
  },
} as const;

/** Chunks per window; windows slide by half of it. */
const WINDOW = 64;
/** Fewest chunks judged (a whole short output). */
const MIN_CHUNKS = 16;

export interface StutterFigures {
  /** Highest share of doubled chunks in a window, its distinct doubled chunks, and where it starts (-1 when no window). */
  share: number;
  distinct: number;
  start: number;
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
    let chunks = 0;
    let best: StutterFigures = { share: 0, distinct: 0, start: -1 };
    let prev = 0;
    let h = 0;
    let hasWord = false;
    let start = -1;
    let lineStart = false;
    const close = () => {
      if (start >= 0 && hasWord) {
        ring[chunks % WINDOW] = h === prev && !lineStart ? h : 0;
        at[chunks % WINDOW] = start;
        chunks++;
        prev = h;
        if (chunks >= WINDOW && chunks % (WINDOW / 2) === 0) {
          const w = windowOf(ring, WINDOW, seen, at[chunks % WINDOW]!);
          if (w.share > best.share) best = w;
        }
      } else prev = 0;
      h = 0x811c9dc5 | 0;
      hasWord = false;
      start = -1;
    };
    for (let i = 0; i < t.n; i++) {
      const info = t.info[i]!;
      if (info & F_SPACE) {
        close();
        lineStart = (info & F_LINE) !== 0;
      }
      if (start < 0) start = t.start[i]!;
      h = Math.imul(h ^ t.id[i]!, 0x01000193) | 1;
      // stutter is words doubled; "0, 0, 0," in data is not
      if ((info & KIND_MASK) !== K_PUNCT && !(info & F_NUM)) hasWord = true;
    }
    close();
    if (chunks < WINDOW && chunks >= MIN_CHUNKS) best = windowOf(ring, chunks, seen, at[0]!);
    return best;
  },
  judge(f: StutterFigures, t: Values<typeof THRESHOLDS>): Array<Finding<StutterKind>> {
    if (f.share < t.stutterShare || f.distinct < t.stutterWords) return [];
    return [
      finding(
        'stutter',
        'fail',
        f.start,
        `${fmt(100 * f.share, 0)}% of the words of a stretch repeat the word before them (${f.distinct} different words doubled)`,
      ),
    ];
  },
} satisfies Detector<StutterFigures, StutterKind, typeof THRESHOLDS>;

function windowOf(ring: Int32Array, size: number, seen: Set<number>, start: number): StutterFigures {
  seen.clear();
  let doubled = 0;
  for (let j = 0; j < size; j++) {
    if (ring[j] !== 0) {
      doubled++;
      seen.add(ring[j]!);
    }
  }
  return { share: doubled / size, distinct: seen.size, start };
}
