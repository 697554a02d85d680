/**
 * The bundle's post-pass (scripts/constBindings.ts): only top-level `var`s that nothing assigns
 * become `const`, the code still runs and says the same, the source map follows the two chars
 * each `const` adds, and every chunk of the shipped command line loads (a `const` read before its
 * declaration while a chunk loads would throw there).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { constBindings } from '../../scripts/constBindings.js';
import { repoPath } from '../helpers/repoRoot.js';

/** The names `code` declares `const` at top level after the pass. */
function consts(code: string): string[] {
  return [...constBindings(code).code.matchAll(/^const (\w+)/gm)].map((m) => m[1]!);
}

describe('constBindings', () => {
  const ROWS: Array<[string, string, string[], string]> = [
    ['a number never assigned', 'var SIZE = 12;\nexport function f() { return SIZE * 2; }', ['SIZE'], 'the case it is for'],
    [
      'a typed array filled in place',
      'var T = new Int32Array(4);\nexport function f() { T[0]++; return T[0]; }',
      ['T'],
      'writing its elements is no assignment to the name',
    ],
    ['two declarators', 'var A = 1, B = 2;\nexport const s = A + B;', ['A'], 'the whole statement turns'],
    ['assigned with =', 'var A = 1;\nexport function f() { A = 2; }', [], ''],
    ['assigned with +=', 'var A = 1;\nexport function f() { A += 2; }', [], ''],
    ['incremented', 'var A = 1;\nexport function f() { A++; }', [], ''],
    ['decremented before', 'var A = 1;\nexport function f() { --A; }', [], ''],
    ['assigned with ??=', 'var A = null;\nexport function f() { A ??= 3; return A; }', [], 'a lazy cache'],
    ['assigned with ||=', 'var A = 0;\nexport function f() { A ||= 3; }', [], ''],
    ['written by an array pattern', 'var A = 1;\nexport function f(x) { [A] = x; }', [], ''],
    ['written by an object pattern', 'var A = 1;\nexport function f(x) { ({ A } = x); }', [], ''],
    ['written by a renaming object pattern', 'var A = 1;\nexport function f(x) { ({ k: A } = x); }', [], ''],
    ['the variable of a for-of', 'var A = 1;\nexport function f(xs) { for (A of xs); }', [], ''],
    ['declared without a value', 'var A;\nexport function f() { return A; }', [], 'esbuild sets such a name later'],
    ['declared twice', 'var A = 1;\nvar A = 2;\nexport { A };', [], ''],
    [
      'a local of the same name assigned',
      'var A = 1;\nexport function f() { let A = 0; A = 2; return A; }',
      [],
      'cautious: the name is written somewhere',
    ],
    ['a var inside a function', 'export function f() { var local = 1; return local; }', [], 'only top-level bindings'],
  ];
  for (const [name, code, expected, why] of ROWS) {
    it(`${name}: ${expected.length > 0 ? `const ${expected.join(', ')}` : 'kept a var'}${why ? ` (${why})` : ''}`, () => {
      assert.deepEqual(consts(code), expected);
    });
  }

  it('leaves code that runs and gives the same results', async () => {
    const code =
      'var N = 3;\nvar CACHE = null;\nvar T = new Int32Array(N);\nexport function f(k) { CACHE ??= k * N; T[0] += CACHE; return T[0]; }';
    const run = async (src: string) => {
      const m = (await import(`data:text/javascript,${encodeURIComponent(src)}`)) as { f(k: number): number };
      return [m.f(2), m.f(5)];
    };
    const r = constBindings(code);
    assert.equal(r.converted, 2);
    assert.equal(r.kept, 1);
    assert.deepEqual(await run(r.code), await run(code));
  });

  it('moves the source map columns after each var made const by two', () => {
    // line 1: `var x = 1;` mapped at columns 0 and 4 (the name); line 2: `let y = 2;` untouched
    const map = JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA,IAAI;AACA,IAAI' });
    const r = constBindings('var x = 1;\nlet y = 2;\nexport { x, y };', map);
    assert.equal(r.code.split('\n')[0], 'const x = 1;');
    // columns 0 and 6 on line 1 (6 - 0 = 6 is 'M'); line 2 as it was
    assert.equal((JSON.parse(r.map!) as { mappings: string }).mappings, 'AAAA,MAAI;AACA,IAAI');
  });

  it('every chunk of the shipped command line (dist/cli) loads', () => {
    const dir = repoPath('dist', 'cli');
    const chunks = readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'prettyTransport.js');
    assert.ok(chunks.length > 3, `dist/cli holds ${chunks.length} chunks: run npm run build`);
    const script = `for (const u of ${JSON.stringify(chunks.map((c) => pathToFileURL(join(dir, c)).href))}) await import(u); console.log('loaded');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /loaded/);
    // and the pass ran: a bundle of esbuild alone declares no top-level const
    const withConst = chunks.filter((c) => /^const /m.test(readFileSync(join(dir, c), 'utf8')));
    assert.ok(withConst.length > 0, 'no chunk of dist/cli declares a top-level const: scripts/bundle.ts did not run constBindings');
  });
});
