import { deflateRawSync } from 'node:zlib';
import { ScratchBytes } from './text/scratchBytes.js';
import type { TextStore } from './textStore.js';

/** gzip = 10-byte header + raw deflate + 8-byte trailer. */
export const GZIP_OVERHEAD = 18;
/** Whole-text gzip is computed in blocks of this many chars, each primed with the previous block (deflate's window is 32 KB). */
const GZ_BLOCK = 32768;
/** Whole-text gzip is exact for this many blocks (128 KB); past them one block in GZ_SAMPLE is compressed. */
const GZ_EXACT_BLOCKS = 4;
const GZ_SAMPLE = 8;
/** UTF-8 bytes a block can take: three per UTF-16 unit at most (a surrogate pair's four bytes are two units'). */
const BLOCK_BYTES = 3 * GZ_BLOCK;
/**
 * The block being deflated, encoded in bytes shared by every tracker (the deflate is done before
 * the call returns): a Buffer.from per block allocated 32 KB each time, over twice the cost of
 * the encoding itself. A block kept as the next one's dictionary is copied to its tracker's own.
 */
const BLOCK = new ScratchBytes(BLOCK_BYTES);

export interface CompressionFigures {
  /** gzip(level 6) bytes / UTF-8 bytes of the whole text; 1 for empty text. */
  ratio: number;
  /** False when the text is longer than 128 KB and `ratio` is estimated from sampled blocks. */
  exact: boolean;
}

/**
 * Incremental gzip figures. Whole-text gzip: each 32 KB block is deflated once, with
 * the previous block as preset dictionary, so the sum equals a one-shot gzip of the
 * text to within a few bytes per block (exactly, for texts up to 32 K chars). Past
 * 128 KB only one block in 8 is deflated and the ratio is estimated from the sampled
 * blocks: gzip alone runs at ~25 MB/s, which would cap the analyzer below its speed
 * target on long texts, while the probe texts (10k tokens, ~40 KB) stay exact.
 * A snapshot only deflates the unfinished block: bounded work whatever the text length.
 */
export class CompressionTracker {
  private gzDone = 0;
  private gzBlocks = 0;
  private gzBytes = 0;
  private utf8Done = 0;
  /** The previous block's bytes when the next block deflated takes it as its dictionary (a view of `dictBytes`), else null. */
  private prevBlock: Buffer | null = null;
  /** The bytes the dictionary is kept in, allocated by the first text that passes a block. */
  private dictBytes: Buffer | null = null;

  constructor(private readonly store: TextStore) {}

  /** The UTF-8 bytes of text [from, to) (at most a block) in the shared scratch, valid until the next call. */
  private encoded(from: number, to: number): Buffer {
    const bytes = BLOCK.get(BLOCK_BYTES);
    return bytes.subarray(0, bytes.write(this.store.slice(from, to), 0, 'utf8'));
  }

  /** Text [from, to) (a whole block) encoded into this tracker's own dictionary bytes. */
  private dictionary(from: number, to: number): Buffer {
    const own = this.ownBytes();
    return own.subarray(0, own.write(this.store.slice(from, to), 0, 'utf8'));
  }

  /** `block` (the shared scratch's) copied to this tracker's own dictionary bytes. */
  private kept(block: Buffer): Buffer {
    const own = this.ownBytes();
    block.copy(own);
    return own.subarray(0, block.length);
  }

  /** The bytes the dictionary is kept in, allocated once, when a text first passes a block. */
  private ownBytes(): Buffer {
    this.dictBytes ??= Buffer.allocUnsafeSlow(BLOCK_BYTES);
    return this.dictBytes;
  }

  /** Compress every block and window that is complete at `pos` chars. */
  advance(pos: number): void {
    while (pos - this.gzDone >= GZ_BLOCK) {
      const i = this.gzBlocks++;
      if (sampled(i)) {
        if (i > 0 && this.prevBlock === null) this.prevBlock = this.dictionary(this.gzDone - GZ_BLOCK, this.gzDone);
        const buf = this.encoded(this.gzDone, this.gzDone + GZ_BLOCK);
        this.gzBytes += this.deflateBlock(buf);
        this.utf8Done += buf.length;
        this.prevBlock = sampled(i + 1) ? this.kept(buf) : null;
      }
      this.gzDone += GZ_BLOCK;
    }
  }

  private deflateBlock(buf: Buffer): number {
    return this.prevBlock === null
      ? deflateRawSync(buf, smallDeflate(buf.length)).length
      : deflateRawSync(buf, { level: 6, dictionary: this.prevBlock }).length;
  }

  /** Figures for the text up to `pos` (the unfinished parts are computed, not stored). */
  figures(pos: number): CompressionFigures {
    let gz = this.gzBytes;
    let bytes = this.utf8Done;
    if (pos > this.gzDone && sampled(this.gzBlocks)) {
      const prev = this.prevBlock;
      if (this.gzBlocks > 0 && prev === null) this.prevBlock = this.dictionary(this.gzDone - GZ_BLOCK, this.gzDone);
      const buf = this.encoded(this.gzDone, pos);
      gz += this.deflateBlock(buf);
      bytes += buf.length;
      this.prevBlock = prev;
    }
    const ratio = bytes === 0 ? 1 : (gz + GZIP_OVERHEAD) / bytes;
    return { ratio, exact: this.gzBlocks <= GZ_EXACT_BLOCKS };
  }
}

/** Options for deflating `bytes` bytes without a dictionary, by window size (index: windowBits). */
const SMALL_DEFLATE: Array<{ level: number; windowBits: number; chunkSize: number }> = [];
for (let bits = 9; bits <= 15; bits++) {
  SMALL_DEFLATE[bits] = { level: 6, windowBits: bits, chunkSize: Math.min(16384, Math.max(64, (1 << bits) - 200)) };
}

/**
 * The smallest window that holds the whole input (a short answer needs 1 KB, not 32 KB), and an
 * output chunk about its size: zlib allocates and clears the window and its hash chains per call,
 * which costs more than compressing a short text. The output is byte for byte the same: a match
 * reaches back at most the window size less 262 bytes, and an input that fits there never slides
 * the window, so no match is lost; the hash table (memLevel) and the level are unchanged.
 */
function smallDeflate(bytes: number): { level: number; windowBits: number; chunkSize: number } {
  let bits = 9;
  while (bits < 15 && (1 << bits) - 262 < bytes) bits++;
  return SMALL_DEFLATE[bits]!;
}

function sampled(block: number): boolean {
  return block < GZ_EXACT_BLOCKS || block % GZ_SAMPLE === 0;
}
