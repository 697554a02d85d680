import type { Detector } from './detector.js';

/** Token kinds the tokenizer emits. */
export const TK_WORD = 1;
/** A word inside an HTML/XML tag: structure, not content. */
export const TK_MARK = 2;
/** One letter of a script written without spaces (Han, kana, Thai...). */
export const TK_SOLO = 3;
/** One punctuation char, symbol or emoji. */
export const TK_PUNCT = 4;

/** Token flags. */
/** Not punctuation: a word, a tag word or a solo letter. */
export const TF_WORDISH = 1;
/** A content word: a word outside tags or a solo letter (what a reader reads). */
export const TF_CONTENT = 2;
/** Starts with a digit. */
export const TF_NUMERIC = 4;
/** The first token after a line break. */
export const TF_AFTER_NL = 8;
/** The first occurrence of this token (lower-cased) in the text. */
export const TF_NEW = 16;

/**
 * A detector fed by the engine's tokenizer instead of (or besides) the raw text. The
 * tokenizer calls the hooks it implements; a snapshot is save(), a speculative finish of
 * what is pending (the same hooks, then flush()), figures(), restore(). Between save()
 * and restore() a detector must not write anything restore() does not undo.
 */
export interface EngineDetector<F extends object = object> extends Detector<F> {
  /** One token: n = its index in the text, id = interned id (lower-cased), char offsets [start, end). */
  token?(n: number, id: number, kind: number, start: number, end: number, flags: number): void;
  /** One line ended (end = offset of its '\n' or of the text end); `text` is the line. */
  line?(start: number, end: number, text: string): void;
  /** A run of whitespace chars [start, start + length) ended. */
  whitespace?(start: number, length: number): void;
  /** Snapshot begins: remember the state; the following hook calls are speculative. */
  save(): void;
  /** Finish anything pending as if the text ended at `pos` (only between save and restore). */
  flush?(pos: number): void;
  /** Snapshot ends: back to the state save() saw. */
  restore(): void;
}

/**
 * The snapshot part of an EngineDetector whose state is one object of plain values: save()
 * copies it, restore() puts the copy back. Subclasses read and write `this.s` directly (no
 * indirection on the token path); `speculative` is true between save and restore, when maps
 * and tables must not be written.
 */
export abstract class PlainStateDetector<S extends object> {
  private saved: S | null = null;

  constructor(protected s: S) {}

  protected get speculative(): boolean {
    return this.saved !== null;
  }

  save(): void {
    this.saved = { ...this.s };
  }

  restore(): void {
    if (this.saved) this.s = this.saved;
    this.saved = null;
  }
}
