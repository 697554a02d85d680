import { createBrotliDecompress, createGunzip, createInflate, type BrotliDecompress, type Gunzip, type Inflate } from 'node:zlib';
import { errorText } from './callErrors.js';

/** Where the decompressed body goes. */
export interface BodySink {
  bytes(chunk: Buffer): void;
  end(): void;
  /** The body could not be decoded; the message names the encoding. */
  error(message: string): void;
}

type Decompressor = Gunzip | Inflate | BrotliDecompress;

function decompressorFor(encoding: string): (() => Decompressor) | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return createGunzip;
  if (encoding === 'deflate') return createInflate;
  if (encoding === 'br') return createBrotliDecompress;
  return null;
}

/**
 * The decode layer of the stream client: the body's bytes as sent (a Content-Encoding undone)
 * and, once read, as text. The two halves are apart because reads are paced between them:
 * the pacer slices decompressed bytes, so a slice may end inside a UTF-8 character.
 */
export class BodyDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private decompressor: Decompressor | null = null;

  constructor(private readonly sink: BodySink) {}

  /**
   * The response's Content-Encoding ('' or 'identity' pass the bytes through). A body
   * compressed against `Accept-Encoding: identity` (some gateways do it) is decoded as it
   * arrives rather than reported as a cut stream; an encoding zlib does not know is an error
   * that names it, thrown here.
   */
  expect(encoding: string): void {
    if (encoding === '' || encoding === 'identity') return;
    const make = decompressorFor(encoding);
    if (make === null) {
      throw new Error(
        `the response body is encoded as "${encoding.slice(0, 40)}", which was not asked for (Accept-Encoding: identity) and cannot be decoded`,
      );
    }
    const { sink } = this;
    const decompressor = make();
    decompressor.on('data', (chunk: Buffer) => sink.bytes(chunk));
    decompressor.on('error', (err) =>
      sink.error(`the response body is ${encoding}-encoded (not asked for) and could not be decoded: ${errorText(err)}`),
    );
    decompressor.on('end', () => sink.end());
    this.decompressor = decompressor;
  }

  /** Bytes as received from the network. */
  write(chunk: Buffer): void {
    if (this.decompressor) this.decompressor.write(chunk);
    else this.sink.bytes(chunk);
  }

  /** The network's end: a decompressor may still hold bytes, so the sink's end can come later. */
  end(): void {
    if (this.decompressor) this.decompressor.end();
    else this.sink.end();
  }

  /** Stops decompressing (the call settled). */
  destroy(): void {
    this.decompressor?.destroy();
  }

  /** Decompressed bytes as text; a character cut between two reads comes whole with the second. A leading BOM is dropped. */
  text(bytes: Uint8Array): string {
    return this.utf8.decode(bytes, { stream: true });
  }

  /** The end of the text: a character left incomplete becomes U+FFFD. */
  endText(): string {
    return this.utf8.decode();
  }
}
