/**
 * The shape of src as a whole: no import circle between its files, and every import pointing
 * down the layers below. Type imports count: a type a lower module borrows from a higher one
 * ties the two together as much as a value does (docs/development.md, "Layers").
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot } from './helpers/repoRoot.js';

const src = join(repoRoot(), 'src');

/**
 * The layers of src, from the ground floor up. A unit is a folder of src, a file at its top, or
 * a file singled out of its folder; a file belongs to the longest unit its path starts with.
 * A file imports files of its own unit and of units on lower floors, never of a unit on its own
 * floor or above: units on one floor know nothing of each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  // cli/exitCodes.ts is a table with no imports that oneShot/ returns codes of; it stays in cli/
  // (the one exit-code table, test/cli/layout.test.ts) but belongs to the ground floor.
  ['core', 'prose', 'files', 'logging', 'version.ts', 'serialised.ts', 'signalGate.ts', 'cli/exitCodes.ts'],
  ['config', 'client'],
  ['fingerprint'],
  ['probe'],
  ['state', 'baseline'],
  ['metrics', 'otel'],
  ['scheduler'],
  // The simulator needs only prose/, but it sits up here so that no production code below
  // the daemon and the commands can lean on it.
  ['http', 'simulator'],
  // the pieces the composition root wires (clients, storage, reload), below it
  ['daemon'],
  ['oneShot', 'daemon.ts'],
  ['cli'],
  ['cli.ts', 'index.ts'],
];

const FLOOR = new Map(LAYERS.flatMap((units, floor) => units.map((u) => [u, floor] as const)));

/** Every .ts file under dir, as absolute paths. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The path of a file of src relative to src, with forward slashes. */
const rel = (file: string) => relative(src, file).split(sep).join('/');

/** The unit of a file of src: the longest entry of LAYERS its path is or starts with (undefined: none). */
function unitOf(file: string): string | undefined {
  const path = rel(file);
  let best: string | undefined;
  for (const unit of FLOOR.keys()) {
    if ((path === unit || path.startsWith(`${unit}/`)) && unit.length > (best?.length ?? -1)) best = unit;
  }
  return best;
}

/**
 * What a module imports from the project, as absolute paths: `import` and `export ... from`,
 * type-only ones included, and `import()` of a literal path. The compiler's own scanner reads
 * them, so an import written in a comment or a string is not taken for one.
 */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

/** The first import circle among the files, as the list of its files (the first one repeated at the end), or null. */
function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const g of graph.get(f) ?? []) {
      const circle = walk(g);
      if (circle) return circle;
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of graph.keys()) {
    const circle = walk(f);
    if (circle) return circle;
  }
  return null;
}

/** Every import of the graph that does not point to its own unit or to a lower floor, one line each. */
function upwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [f, targets] of graph) {
    const from = unitOf(f);
    if (from === undefined) continue;
    for (const g of targets) {
      const to = unitOf(g);
      if (to === undefined || to === from) continue;
      const a = FLOOR.get(from) as number;
      const b = FLOOR.get(to) as number;
      if (b >= a) out.push(`${rel(f)} (${from}, floor ${a}) imports ${rel(g)} (${to}, floor ${b})`);
    }
  }
  return out;
}

describe('src layout', () => {
  const all = files(src);
  const graph = new Map(all.map((f) => [f, importsOf(f).filter((g) => g.endsWith('.ts') && existsSync(g))]));

  it('reads type imports, re-exports and import() of a literal path', () => {
    const kinds = importsOf(join(src, 'probe', 'kinds', 'recallKind.ts')).map(rel);
    assert.ok(kinds.includes('probe/probeDeps.ts'), kinds.join(', '));
    const probe = importsOf(join(src, 'cli', 'commands', 'probe.ts')).map(rel);
    assert.ok(probe.includes('oneShot/probeCommand.ts'), probe.join(', '));
    const simulator = importsOf(join(src, 'simulator', 'index.ts')).map(rel);
    assert.ok(simulator.includes('prose/healthyText.ts'), simulator.join(', '));
  });

  it('is the table of floors in docs/development.md', () => {
    const doc = readFileSync(join(repoRoot(), 'docs', 'development.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Layers'), doc.indexOf('\n## ', doc.indexOf('### Layers')));
    const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [
      Number(m[1]),
      [...m[2]!.matchAll(/`([^`]+?)\/?`/g)].map((u) => u[1]),
    ]);
    assert.deepEqual(
      rows,
      LAYERS.map((units, floor) => [floor, [...units]]).reverse(),
      'the floors of docs/development.md ("Layers") and LAYERS of test/imports.test.ts differ',
    );
  });

  it('keeps the probe contract types only and the dispatcher free of re-exports', () => {
    const contract = readFileSync(join(src, 'probe', 'probeDeps.ts'), 'utf8');
    const values = contract.match(/^(?:import (?!type )|export (?!interface |type )).*$/gm) ?? [];
    assert.deepEqual(values, [], 'src/probe/probeDeps.ts imports or exports values: it holds types only');
    const dispatcher = readFileSync(join(src, 'probe', 'runProbe.ts'), 'utf8');
    const exports = dispatcher.match(/^export .*$/gm) ?? [];
    assert.deepEqual(
      exports.map((line) => line.replace(/\(.*/, '')),
      ['export async function runProbe'],
      'src/probe/runProbe.ts exports runProbe and nothing else',
    );
  });

  it('puts every file of src in a layer', () => {
    const homeless = all.filter((f) => unitOf(f) === undefined).map(rel);
    assert.deepEqual(homeless, [], `files in no unit of LAYERS (test/imports.test.ts): ${homeless.join(', ')}`);
  });

  it('has no import circle, type imports included', () => {
    const circle = findCircle(graph);
    assert.equal(circle, null, `import circle: ${circle?.map(rel).join(' -> ')}`);
  });

  it('imports nothing from its own floor or above', () => {
    const upward = upwardImports(graph);
    assert.deepEqual(upward, [], `imports that do not point down the layers:\n${upward.join('\n')}`);
  });
});
