/**
 * Stutter: every word said twice ("I I think think the the answer answer", `team: team:`),
 * the signature of a broken KV cache that repeats each token. A doubled word happens in
 * healthy text ("that that", "had had", "na na" in a song), but not many different words
 * doubled in one stretch. One statistic, read over a window of whitespace-delimited chunks
 * that slides one chunk at a time: the share of its chunks that double the chunk before them,
 * each word counted for two at most (a chorus of "na na na na" is one word doubled however
 * long it runs, a stutter doubles every word). A chunk after a line break or a column gap (two
 * spaces, a tab) doubles nothing: it starts a line or a cell.
 */
import * as tokens from '../text/tokens.js';
import type { Detector, Scan, Values } from './detector.js';
import { type Finding, finding, fmt } from './finding.js';

// module-level copies of the token flags the per-token loop reads: an imported binding is live, read through its
// module's cell each time, where a const of this module is not
const { F_GAP, F_LINE, F_NUM, F_SPACE, K_PUNCT, KIND_MASK } = tokens;

export const STUTTER_KINDS = ['stutter'] as const;
export type StutterKind = (typeof STUTTER_KINDS)[number];

const THRESHOLDS = {
  stutterShare: {
    value: 0.2,
    why: 'share of the chunks of a 64-chunk window (of a whole output of 16+) that double the chunk before them, each word counted for two at most, that fails. Healthy windows reach 0.11 (a manual in HTML; model outputs 0.06; npm run bench -- thresholds), so the threshold is about twice that: 13 words doubled in 64 chunks. A stutter of every word reads 0.35-0.5',
  },
} as const;

/** Chunks per window. */
const WINDOW = 64;
/** Doubled chunks a word counts for in a window at most: "na na na na" is a chorus, however long. */
const PER_WORD = 2;
/** Fewest chunks judged (a whole short output). */
const MIN_CHUNKS = 16;

/**
 * The window's ring of doubled hashes and chunk starts, and the counts of the doubled hashes in
 * it, shared by every call (one runs at a time): a call reads no slot it has not written, and
 * empties the map first. Made anew per call they cost a short text more than its reading.
 */
const RING = new Int32Array(WINDOW);
const AT = new Int32Array(WINDOW);
const IN_WINDOW = new Map<number, number>();

export interface StutterFigures {
  /** Highest share of a window's chunks that double a word (each word for two at most), the distinct doubled words, and where it starts (-1 when no window). */
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
    // ring[k]: the hash of chunk k (mod WINDOW) when it doubles the chunk before it, else 0;
    // inWindow counts each doubled hash in the window (its size is the distinct count), and
    // capped sums those counts at PER_WORD each
    const ring = RING;
    const at = AT;
    const inWindow = IN_WINDOW;
    inWindow.clear();
    let chunks = 0;
    let best: StutterFigures = { share: 0, distinct: 0, start: -1 };
    let prev = 0;
    let capped = 0;
    let h = 0;
    let hasWord = false;
    let start = -1;
    let lineStart = false;
    let gapBefore = false;
    // the buffer's arrays in locals, and the chunk's close written in the loop (a closure over the chunk's state kept it
    // out of registers at every token): the map is touched only when a doubled chunk enters or leaves the window
    const { info: tInfo, start: tStart, end: tEnd, id: tId, n } = t;
    const text = scan.text();
    for (let i = 0; i <= n; i++) {
      const info = i < n ? tInfo[i]! : F_SPACE;
      if (info & F_SPACE) {
        // the chunk before closes (whitespace starts the next one, or the text ends)
        if (start >= 0 && hasWord) {
          const slot = chunks % WINDOW;
          const out = chunks >= WINDOW ? ring[slot]! : 0;
          if (out !== 0) {
            const c = inWindow.get(out)! - 1;
            if (c < PER_WORD) capped--;
            if (c === 0) inWindow.delete(out);
            else inWindow.set(out, c);
          }
          const v = h === prev && !lineStart && !gapBefore && !isIdentifier(text, start, tEnd[i - 1]!) ? h : 0;
          ring[slot] = v;
          at[slot] = start;
          chunks++;
          prev = h;
          let counted = false;
          if (v !== 0) {
            const c = inWindow.get(v) ?? 0;
            inWindow.set(v, c + 1);
            if (c < PER_WORD) {
              capped++;
              counted = true;
            }
          }
          // the share rises only when a doubled chunk counts (or when the first window fills): read it then
          if (counted || chunks === MIN_CHUNKS) {
            const size = Math.min(chunks, WINDOW);
            if (size >= MIN_CHUNKS && capped / size > best.share) {
              best = { share: capped / size, distinct: inWindow.size, start: at[chunks < WINDOW ? 0 : chunks % WINDOW]! };
            }
          }
        } else prev = 0;
        h = 0x811c9dc5 | 0;
        hasWord = false;
        start = -1;
        if (i === n) break;
        lineStart = (info & F_LINE) !== 0;
        // two spaces or a tab before it: the next column of aligned text (`#define IFF_UP\t\tIFF_UP`, a table's cells),
        // where a value the same as its neighbour's is no word said twice
        gapBefore = i > 0 && (info & F_GAP) !== 0;
      }
      if (start < 0) start = tStart[i]!;
      h = Math.imul(h ^ tId[i]!, 0x01000193) | 1;
      // stutter is words doubled; "0, 0, 0," in data is not
      if ((info & KIND_MASK) !== K_PUNCT && !(info & F_NUM)) hasWord = true;
    }
    return best;
  },
  judge(f: StutterFigures, t: Values<typeof THRESHOLDS>): Array<Finding<StutterKind>> {
    if (f.share < t.stutterShare) return [];
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

/** True when text[from, to) holds an underscore between letters: a name of code (`XFRM_MSG_NEWSA`), which a macro or a binding says twice by design. */
function isIdentifier(text: string, from: number, to: number): boolean {
  // a loop over the chunk, not indexOf: in prose with no underscore that would read on to the end of the text
  for (let k = from + 1; k < to - 1; k++) if (text.charCodeAt(k) === 0x5f) return true;
  return false;
}
