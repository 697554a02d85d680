import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BLOCKS_FOR_ONE_PASS,
  FRAGMENT_CHARS,
  joinSecrets,
  REDACTED,
  StreamRedactor,
  redactBytes,
  redactText,
  secretsOf,
} from '../../src/client/redactSecrets.js';

const KEY = 'sk-Canary0123456789abcdefghijKLMNOPQRSTUV';
const own = secretsOf({ authorization: `Bearer ${KEY}` });

/** 21 keys of other targets (a fixed pseudo-random sequence): with them the blocks are looked up in one pass over the text. */
function decoys(): string[] {
  const abc = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
  let x = 12345;
  return Array.from({ length: 21 }, (_, i) => {
    let k = `sk-other${i}-`;
    while (k.length < 56) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      k += abc[(x >>> 16) % abc.length];
    }
    return k;
  });
}
const crowd = joinSecrets(own, decoys());
const blocksOf = (list: readonly string[]) => list.reduce((n, k) => n + Math.floor(k.length / (FRAGMENT_CHARS / 2)), 0);

test('one key is looked for block by block, the secrets of a 20-target configuration in one pass', () => {
  assert.ok(blocksOf(own) <= BLOCKS_FOR_ONE_PASS);
  assert.ok(blocksOf(crowd) > BLOCKS_FOR_ONE_PASS);
});

// Every case holds for the target's own key alone and among the other secrets of the configuration.
for (const [among, secrets] of [
  ['', own],
  [' (among 21 other secrets)', crowd],
] as const) {
  /** No FRAGMENT_CHARS-character piece of the key, in any case, is left in `text`. */
  function assertNoPiece(text: string, key = KEY): void {
    const lower = text.toLowerCase();
    for (let i = 0; i + FRAGMENT_CHARS <= key.length; i++) {
      const piece = key.slice(i, i + FRAGMENT_CHARS).toLowerCase();
      assert.equal(lower.includes(piece), false, `"${piece}" leaked in: ${text}`);
    }
  }

  test(`secretsOf takes the credential without its auth scheme, and every credential header${among}`, () => {
    assert.deepEqual(secretsOf({ authorization: `Bearer ${KEY}` }), [KEY]);
    assert.deepEqual(secretsOf({ 'X-Api-Key': 'xk-0123456789', accept: 'application/json-and-more' }), ['xk-0123456789']);
    assert.deepEqual(secretsOf({ cookie: 'session=abcdef123456; theme=dark' }), ['abcdef123456']);
    assert.deepEqual(secretsOf({ 'api-key': 'abc' }), [], 'a value under 4 characters is no secret');
    const basic = Buffer.from('alice:pa55-w0rd-xyz').toString('base64');
    assert.deepEqual(secretsOf({ Authorization: `Basic ${basic}` }), [basic, 'pa55-w0rd-xyz']);
    // the scheme word is not redacted elsewhere
    assert.equal(redactText('Bearer tokens are sent as Bearer xyz', secrets), 'Bearer tokens are sent as Bearer xyz');
  });

  const cases: Array<[string, string, string]> = [
    ['whole', `key ${KEY} end`, `key ${REDACTED} end`],
    ['lower-cased', `server: srv-${KEY.toLowerCase()}`, `server: srv-${REDACTED}`],
    ['upper-cased', `X${KEY.toUpperCase()}X`, `X${REDACTED}X`],
    ['a 20-character prefix', `invalid key ${KEY.slice(0, 20)}…`, `invalid key ${REDACTED}…`],
    ['a suffix', `…${KEY.slice(-9)}"`, `…${REDACTED}"`],
    ['a middle piece of 8', `[${KEY.slice(10, 18)}]`, `[${REDACTED}]`],
    ['two occurrences back to back', `${KEY}${KEY}`, `${REDACTED}${REDACTED}`],
    ['a 7-character piece stays', `[${KEY.slice(10, 17)}]`, `[${KEY.slice(10, 17)}]`],
    ['no secret', 'plain text of a model, with sk- in it', 'plain text of a model, with sk- in it'],
  ];
  for (const [name, text, want] of cases) {
    test(`redactText: ${name}${among}`, () => {
      assert.equal(redactText(text, secrets), want);
    });
  }

  test(`a secret shorter than 8 characters is redacted where it is whole, in any case${among}`, () => {
    const short = joinSecrets(secretsOf({ 'x-api-key': 'Ab3xYz' }), among ? decoys() : []);
    assert.equal(redactText('got ab3xyz and AB3XYZ but not Ab3xY.', short), `got ${REDACTED} and ${REDACTED} but not Ab3xY.`);
  });

  test(`redactBytes replaces pieces of a secret in any case and keeps every other byte${among}`, () => {
    const raw = Buffer.concat([
      Buffer.from(`data: {"echo":"${KEY.toLowerCase()} and ${KEY.slice(0, 20)}"}\n\n`),
      Buffer.from([0xff, 0xfe]),
    ]);
    const out = redactBytes(raw, secrets);
    assert.equal(out.toString('latin1'), `data: {"echo":"${REDACTED} and ${REDACTED}"}\n\n\xff\xfe`);
    const plain = Buffer.from('nothing here');
    assert.equal(redactBytes(plain, secrets), plain);
  });

  test(`StreamRedactor gives what redactText gives the whole, at every cut into two and three pieces${among}`, () => {
    const text = `a ${KEY} b ${KEY.slice(3, 25).toLowerCase()} c ${KEY.slice(0, 7)} d ${KEY.slice(-12)}`;
    const want = redactText(text, secrets);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j += i % 3 === 0 ? 1 : 5) {
        const r = new StreamRedactor(secrets);
        const got = r.push(text.slice(0, i)) + r.push(text.slice(i, j)) + r.push(text.slice(j)) + r.end();
        assert.equal(got, want, `cut at ${i} and ${j}`);
      }
    }
  });

  test(`StreamRedactor fed one character at a time lets no piece through${among}`, () => {
    const text = `x${KEY.slice(0, 20)}y${KEY.toUpperCase()}z`;
    const r = new StreamRedactor(secrets);
    let out = '';
    for (const ch of text) out += r.push(ch);
    out += r.end();
    assertNoPiece(out);
    assert.equal(out, `x${REDACTED}y${REDACTED}z`);
  });

  test(`StreamRedactor without secrets passes text through at once${among}`, () => {
    const r = new StreamRedactor([]);
    assert.equal(r.push('abc'), 'abc');
    assert.equal(r.end(), '');
  });

  test(`redaction is linear: 1 MB with the key spread through it takes well under a second${among}`, () => {
    const chunk = `${'lorem ipsum dolor sit amet '.repeat(40)}${KEY.slice(5, 30)} `;
    const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
    const t0 = performance.now();
    const out = redactText(text, secrets);
    const ms = performance.now() - t0;
    assertNoPiece(out.slice(0, 10_000));
    assert.ok(ms < 1000, `${ms} ms`);
  });

  test(`a secret with characters outside the BMP is matched by code units${among}`, () => {
    const odd = joinSecrets(['key-🙂🙂-0123456789'], among ? decoys() : []);
    assert.equal(redactText(`x key-🙂🙂-0123 y`, odd), `x ${REDACTED} y`);
    assert.equal(redactText('x 🙂-0123456 y', odd), `x ${REDACTED} y`);
  });
}
