/**
 * The shape of the command line: src/cli.ts only dispatches, each command is a module of
 * src/cli/commands/ named after it, exit codes come from one table, and what --help and
 * --version load stays small (every heavy module is imported by a command when it runs).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { main } from '../../src/cli.js';
import { cliIO } from '../helpers/cliIO.js';
import { repoRoot } from '../helpers/repoRoot.js';

const src = join(repoRoot(), 'src');
const commandsDir = join(src, 'cli', 'commands');

/** Static imports of a module, type-only ones aside: project modules as .ts paths, packages by name. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)) {
    if (m[1]) continue;
    const spec = m[2]!;
    out.push(spec.startsWith('.') ? resolve(dirname(file), spec.replace(/\.js$/, '.ts')) : spec);
  }
  return out;
}

/** Every module (and package) loaded when src/cli.ts is, before any command runs. */
function startupClosure(): Set<string> {
  const seen = new Set<string>();
  const walk = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    if (f.startsWith(src)) for (const g of staticImports(f)) walk(g);
  };
  walk(join(src, 'cli.ts'));
  return seen;
}

describe('the command line layout', () => {
  it('keeps src/cli.ts the dispatch, under 150 lines', () => {
    const lines = readFileSync(join(src, 'cli.ts'), 'utf8').split('\n').length;
    assert.ok(lines <= 150, `${lines} lines`);
  });

  it('has one module per command, named after it, and lists exactly those', async () => {
    const files = readdirSync(commandsDir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''));
    const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const r = cliIO();
    assert.equal(await main(['--help'], r.io), 0);
    const listed = [...r.out().matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]);
    assert.deepEqual([...listed].sort(), files.map(kebab).sort());
    for (const f of files) {
      const text = readFileSync(join(commandsDir, `${f}.ts`), 'utf8');
      assert.match(text, new RegExp(`^export const ${f}: Command = \\{`, 'm'), `${f}.ts exports its Command as ${f}`);
    }
  });

  it('returns exit codes from the one table, never as bare numbers', () => {
    const dirs = [commandsDir, join(src, 'oneShot')];
    const files = [join(src, 'cli.ts'), ...dirs.flatMap((d) => readdirSync(d).map((f) => join(d, f)))].filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      assert.doesNotMatch(text, /\breturn [0-9]+;|\bcode = [0-9]+;/, `${relative(src, f)} returns a bare exit code`);
      assert.doesNotMatch(text, /\b[A-Z_]*EXIT = \{/, `${relative(src, f)} declares an exit-code table of its own`);
    }
    assert.ok(existsSync(join(src, 'cli', 'exitCodes.ts')));
  });

  it('loads no package and no heavy module before a command runs (--help, --version)', () => {
    const loaded = [...startupClosure()];
    const packages = loaded.filter((m) => !m.startsWith(src) && !m.startsWith('node:'));
    assert.deepEqual(packages, [], 'packages are imported by the command that uses them, when it runs');
    const heavy = loaded
      .map((m) => relative(src, m))
      .filter((m) => /^(daemon\.ts|core\/|http\/|simulator\/|probe\/|scheduler\/|metrics\/)/.test(m));
    assert.deepEqual(heavy, []);
    assert.ok(loaded.length <= 25, `${loaded.length} modules at start-up`);
  });
});
