import { SCRIPT_COUNT } from './charClass.js';

/** Char statistics of one 256-byte block of text, summed into 768-byte windows by the windows detector. */
export interface Block {
  chars: number;
  spaces: number;
  words: number;
  latinWords: number;
  /** Function words ("the", "of", "is"...). */
  fw: number;
  sentEnd: number;
  /** Sentence ends of prose: ". " (or ! ?) right after a word outside code and addresses, and 。！？। anywhere outside code. */
  proseEnds: number;
  newlines: number;
  letters: number;
  latinLetters: number;
  vowels: number;
  /** Letters of words made only of Latin letters (no digits, other scripts, tags). */
  pureLatinLetters: number;
  /** Letters of such words with 40+ letters (glued words). */
  gluedLetters: number;
  /** U+FFFD, controls, private use. */
  odd: number;
  /** UTF-8 read as Latin-1 ("Ã©"). */
  mojibake: number;
  /** Whitespace-delimited chunks equal to the one before ("the the"). */
  stutter: number;
  punct: number;
  chunks: number;
  allLatin: number;
  allVowels: number;
  /** Words mixing letters and digits (not hex) or flipping case twice. */
  garbled: number;
  /** Latin letters inside code blocks and spans, tags and URLs (part of scripts[Latin]): the markup's, not the writer's language. */
  codeLatin: number;
  /** Uppercase letters of words that also have lowercase ones (Title, camelCase, rAnDoM); an ALL-CAPS word adds none. */
  mixedUpper: number;
  scripts: Int32Array;
}

export function newBlock(): Block {
  return {
    chars: 0,
    spaces: 0,
    words: 0,
    latinWords: 0,
    fw: 0,
    sentEnd: 0,
    proseEnds: 0,
    newlines: 0,
    letters: 0,
    latinLetters: 0,
    vowels: 0,
    pureLatinLetters: 0,
    gluedLetters: 0,
    odd: 0,
    mojibake: 0,
    stutter: 0,
    punct: 0,
    chunks: 0,
    allLatin: 0,
    allVowels: 0,
    garbled: 0,
    codeLatin: 0,
    mixedUpper: 0,
    scripts: new Int32Array(SCRIPT_COUNT),
  };
}

export function copyBlock(b: Block): Block {
  return { ...b, scripts: b.scripts.slice() };
}

export function addBlock(into: Block, b: Block): void {
  into.chars += b.chars;
  into.spaces += b.spaces;
  into.words += b.words;
  into.latinWords += b.latinWords;
  into.fw += b.fw;
  into.sentEnd += b.sentEnd;
  into.proseEnds += b.proseEnds;
  into.newlines += b.newlines;
  into.letters += b.letters;
  into.latinLetters += b.latinLetters;
  into.vowels += b.vowels;
  into.pureLatinLetters += b.pureLatinLetters;
  into.gluedLetters += b.gluedLetters;
  into.odd += b.odd;
  into.mojibake += b.mojibake;
  into.stutter += b.stutter;
  into.punct += b.punct;
  into.chunks += b.chunks;
  into.allLatin += b.allLatin;
  into.allVowels += b.allVowels;
  into.garbled += b.garbled;
  into.codeLatin += b.codeLatin;
  into.mixedUpper += b.mixedUpper;
  for (let i = 0; i < SCRIPT_COUNT; i++) into.scripts[i]! += b.scripts[i]!;
}
