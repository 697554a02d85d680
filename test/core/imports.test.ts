/** The shape of src/core: no import circle, the engine a short loop, core imports nothing of the project above it. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/repoRoot.js';

const core = join(repoRoot(), 'src', 'core');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Imports of a module, type-only ones included, as absolute .ts paths (test/imports.test.ts reads the whole of src). */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'/gm)) {
    out.push(resolve(dirname(file), m[2]!.replace(/\.js$/, '.ts')));
  }
  return out;
}

describe('src/core layout', () => {
  const all = files(core);
  it('has no import circle', () => {
    const graph = new Map(all.map((f) => [f, importsOf(f)]));
    const state = new Map<string, number>();
    const walk = (f: string, path: string[]): void => {
      if (state.get(f) === 2) return;
      assert.notEqual(state.get(f), 1, `import circle: ${[...path, f].map((p) => relative(core, p)).join(' -> ')}`);
      state.set(f, 1);
      for (const g of graph.get(f) ?? []) walk(g, [...path, f]);
      state.set(f, 2);
    };
    for (const f of all) walk(f, []);
  });
  it('imports nothing from the project outside src/core', () => {
    for (const f of all) for (const g of importsOf(f)) assert.ok(g.startsWith(core), `${relative(core, f)} imports ${g}`);
  });
  it('keeps engine.ts the tokenizer-and-detectors loop, under 300 lines', () => {
    const lines = readFileSync(join(core, 'engine.ts'), 'utf8').split('\n').length;
    assert.ok(lines <= 300, `${lines} lines`);
  });
});
