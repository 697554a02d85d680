/** Gopher-style word n-gram fractions over the last 2048 words (reported as figures; loops and cycling judge repetition). */
import type { Finding } from '../finding.js';
import { ngramFractions, type NgramFractions } from '../ngramFractions.js';
import { TF_WORDISH, type EngineDetector } from './engineDetector.js';

/** Words kept (the whole text up to ~12 KB, else its tail). */
const NGRAM_WORDS = 2048;

export class NgramDetector implements EngineDetector<NgramFractions> {
  readonly name = 'ngrams';
  private words = 0;
  private savedWords = -1;
  private readonly ids = new Int32Array(NGRAM_WORDS);
  private readonly lens = new Int32Array(NGRAM_WORDS);
  /** Slot, id and length overwritten by a speculative word (restored after a snapshot). */
  private readonly undo: number[] = [];

  token(_n: number, id: number, _kind: number, start: number, end: number, flags: number): void {
    if (!(flags & TF_WORDISH)) return;
    const slot = this.words % NGRAM_WORDS;
    if (this.savedWords >= 0) this.undo.push(slot, this.ids[slot]!, this.lens[slot]!);
    this.ids[slot] = id;
    this.lens[slot] = end - start;
    this.words++;
  }

  save(): void {
    this.savedWords = this.words;
  }

  restore(): void {
    const u = this.undo;
    for (let i = u.length - 3; i >= 0; i -= 3) {
      this.ids[u[i]!] = u[i + 1]!;
      this.lens[u[i]!] = u[i + 2]!;
    }
    u.length = 0;
    if (this.savedWords >= 0) this.words = this.savedWords;
    this.savedWords = -1;
  }

  figures(): NgramFractions {
    const count = Math.min(this.words, NGRAM_WORDS);
    const ids = new Int32Array(count);
    const lens = new Int32Array(count);
    const first = this.words - count;
    for (let i = 0; i < count; i++) {
      const slot = (first + i) % NGRAM_WORDS;
      ids[i] = this.ids[slot]!;
      lens[i] = this.lens[slot]!;
    }
    return ngramFractions(ids, lens, count);
  }

  judge(): Finding[] {
    return [];
  }
}
