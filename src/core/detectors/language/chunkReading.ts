/**
 * The state of one chunk reading (readChunks, wordShapes.ts): the chunk being read, what a chunk
 * left for the next kept one, and the run of sentence marks going on. The pieces of the reading
 * (a punctuation token, a fenced block passed over, a chunk closed, the rare shapes of a letter
 * token) each live in their own module and share this one object; a single one is kept and
 * reset for every reading, so a text allocates none.
 */
import * as charClass from '../../charClass.js';
import * as chunks from './chunks.js';
import * as marks from './marks.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { SC_NONE } = charClass;
const { C_LINE } = chunks;
const { runMarks } = marks;

/** The offset basis of the chunk key's FNV-1a hash. */
const KEY_BASIS = 0x811c9dc5 | 0;

export class ChunkReading {
  /** The code flags of the reading: F_CODE for the prose, F_CODE | F_FENCE for the fenced blocks (see isLetterToken). */
  codeOf = 0;
  /** Where the chunk starts (-1 before its first token), its chunk flags (C_*) and its letters (solo letters count one). */
  start = -1;
  flags = 0;
  letters = 0;
  /** The chunk is code or markup (dropped when closed); a token of a fenced block was met in this reading. */
  code = false;
  sawFence = false;
  /** The script of the chunk's last letter token. */
  prevScript = SC_NONE;
  /** The scripts the chunk has letters of, one bit each: most chunks have one. */
  scriptMask = 0;
  /** Letters per script when the chunk has letters of two scripts or more; the chunk's close zeroes them. */
  readonly scripts = new Int32Array(16);
  /** Commas glued inside the chunk. */
  commas = 0;
  /** A hash of the chunk's words (case folded). The first chunk of a reading starts from 0, the others from KEY_BASIS. */
  key = 0;
  /** The whitespace that closed the last chunk had a line break: the next one starts a line. */
  line = false;
  /**
   * What chunks that were not kept leave to the next kept one: C_LINE when one started a line
   * (then the next kept one does), C_AFTER when one came since the last kept one.
   */
  owed = 0;
  /** An escaped line break ("\n") came in the chunk: the chunk after the whitespace starts a line. */
  escapedLine = false;
  /**
   * The run of sentence marks (, . ; : ! ?) going on: its length, its dots, commas and colons,
   * its first two marks (the counts are zeroed when a run starts) and where its last mark ends.
   */
  run = 0;
  runDots = 0;
  runCommas = 0;
  runColons = 0;
  runPair = 0;
  lastEnd = -1;
  /** RUN_NOISY: punctuation where no language puts it; RUN_LOOSE: a comma, or a dot that is no ellipsis, in the chunk. */
  marks = 0;
  /** A digit in the chunk, and a bracket or a quote. */
  digits = false;
  enclosed = false;
  /** The longest run in the chunk of one of \ / | (and the run going on: its length, its char, where it ends). */
  barMax = 0;
  barRun = 0;
  barChar = 0;
  barEnd = -1;
  /** Noisy chunks without letters met before the first kept chunk: the first one carries them. */
  noiseOwed = 0;

  /** Ready for a new reading. */
  reset(codeOf: number): void {
    this.codeOf = codeOf;
    this.start = -1;
    this.flags = 0;
    this.letters = 0;
    this.code = false;
    this.sawFence = false;
    this.prevScript = SC_NONE;
    this.scriptMask = 0;
    this.scripts.fill(0);
    this.commas = 0;
    this.key = 0;
    this.line = false;
    this.owed = 0;
    this.escapedLine = false;
    this.run = 0;
    this.runDots = 0;
    this.runCommas = 0;
    this.runColons = 0;
    this.runPair = 0;
    this.lastEnd = -1;
    this.marks = 0;
    this.digits = false;
    this.enclosed = false;
    this.barMax = 0;
    this.barRun = 0;
    this.barChar = 0;
    this.barEnd = -1;
    this.noiseOwed = 0;
  }

  /** The next chunk starts (after the close of one): a line when the whitespace before it had a break. */
  nextChunk(): void {
    this.marks = 0;
    this.digits = false;
    this.enclosed = false;
    this.barMax = 0;
    this.barRun = 0;
    this.flags = this.line ? C_LINE : 0;
    this.letters = 0;
    this.commas = 0;
    this.key = KEY_BASIS;
    this.start = -1;
    this.code = false;
    this.prevScript = SC_NONE;
    if ((this.scriptMask & (this.scriptMask - 1)) !== 0) this.scripts.fill(0);
    this.scriptMask = 0;
  }

  /** The run of sentence marks going on ends: what it leaves goes on the chunk's marks. */
  endRun(): void {
    if (this.run > 0) {
      this.marks |= runMarks(this.run, this.runDots, this.runCommas, this.runColons, this.runPair);
      this.run = 0;
    }
  }
}
