import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { BodyDecoder } from '../../src/client/bodyDecoder.js';

/** Every way of cutting `bytes` in two, plus one byte at a time. */
function splits(bytes: Buffer): Buffer[][] {
  const out: Buffer[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) out.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
  out.push([...bytes].map((b) => Buffer.from([b])));
  return out;
}

/** The decompressed bytes, the end and any error of one body written in `parts`. */
function decompress(encoding: string, parts: Buffer[]): Promise<{ bytes: Buffer; error: string | null }> {
  return new Promise((resolve) => {
    const got: Buffer[] = [];
    const decoder = new BodyDecoder({
      bytes: (chunk) => got.push(chunk),
      end: () => resolve({ bytes: Buffer.concat(got), error: null }),
      error: (message) => resolve({ bytes: Buffer.concat(got), error: message }),
    });
    decoder.expect(encoding);
    for (const part of parts) decoder.write(part);
    decoder.end();
  });
}

/** The text of `bytes` decoded in `parts`. */
function text(parts: Uint8Array[]): string {
  const decoder = new BodyDecoder({ bytes: () => {}, end: () => {}, error: () => {} });
  return parts.map((p) => decoder.text(p)).join('') + decoder.endText();
}

const BODY = Buffer.from('data: {"choices":[{"delta":{"content":"é€😀 ok"}}]}\r\n\r\ndata: [DONE]\n\n', 'utf8');

test('identity bytes pass through as written, the end at once', async () => {
  for (const encoding of ['', 'identity']) {
    const got = await decompress(encoding, [BODY.subarray(0, 5), BODY.subarray(5)]);
    assert.deepEqual(got, { bytes: BODY, error: null });
  }
});

for (const [encoding, compress] of [
  ['gzip', gzipSync],
  ['x-gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
] as const) {
  test(`${encoding}: the body cut at every byte, or written a byte at a time, decodes whole`, async () => {
    const packed = compress(BODY);
    for (const parts of splits(packed)) {
      const got = await decompress(encoding, parts);
      assert.deepEqual(got, { bytes: BODY, error: null }, `cut into ${parts.map((p) => p.length).join('+')}`);
    }
  });
}

test('a gzip stream cut anywhere before its end is an error naming the encoding, after what it decoded', async () => {
  const packed = gzipSync(BODY);
  for (let cut = 1; cut < packed.length; cut++) {
    const got = await decompress('gzip', [packed.subarray(0, cut)]);
    assert.match(got.error ?? '', /^the response body is gzip-encoded \(not asked for\) and could not be decoded: /, `cut at ${cut}`);
    assert.ok(BODY.subarray(0, got.bytes.length).equals(got.bytes), `cut at ${cut}: a prefix of the body`);
  }
});

test('an encoding zlib does not know is refused by name', () => {
  const decoder = new BodyDecoder({ bytes: () => {}, end: () => {}, error: () => {} });
  assert.throws(
    () => decoder.expect('zstd'),
    /^Error: the response body is encoded as "zstd", which was not asked for \(Accept-Encoding: identity\) and cannot be decoded$/,
  );
});

test('UTF-8 cut at every byte (inside a 2-, 3- and 4-byte character) or read a byte at a time gives the same text', () => {
  const whole = BODY.toString('utf8');
  for (const parts of splits(BODY)) assert.equal(text(parts), whole, `cut into ${parts.map((p) => p.length).join('+')}`);
});

test('a leading BOM is dropped, one later is kept; a character cut by the end is U+FFFD', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  assert.equal(text([bom.subarray(0, 1), bom.subarray(1), Buffer.from('data: x')]), 'data: x');
  assert.equal(text([Buffer.from('a'), bom]), 'a\ufeff');
  assert.equal(text([Buffer.from('€', 'utf8').subarray(0, 2)]), '\ufffd');
});
