// The shape of src/http (issue 38, item 4): buildApp() wires the root hooks and registers the
// route plugins; every route lives in src/http/routes/, one module per family, named after the
// plugin it exports and holding no state of its own between apps.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { repoPath } from '../helpers/repoRoot.js';

const BUILD_APP = repoPath('src', 'http', 'buildApp.ts');
const ROUTES = repoPath('src', 'http', 'routes');
/** A route declared on a Fastify instance: app.get(...), app.route(...) and the like. */
const ROUTE_CALL = /\bapp\.(get|head|post|put|delete|patch|options|all|route)\s*[<(]/;

describe('src/http layout', () => {
  it('keeps buildApp() under 150 lines', () => {
    const lines = readFileSync(BUILD_APP, 'utf8').split('\n');
    const start = lines.findIndex((l) => l.startsWith('export function buildApp('));
    assert.ok(start >= 0, 'buildApp.ts exports function buildApp');
    const end = lines.findIndex((l, i) => i > start && l === '}');
    assert.ok(end - start + 1 < 150, `buildApp() is ${end - start + 1} lines`);
  });

  it('declares no route in buildApp.ts: each one is in a plugin of src/http/routes/', () => {
    const found = readFileSync(BUILD_APP, 'utf8')
      .split('\n')
      .filter((l) => ROUTE_CALL.test(l));
    assert.deepEqual(found, []);
  });

  it('has one plugin per route module, named after its file, with no module-level state and no import of buildApp.ts', () => {
    const files = readdirSync(ROUTES).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length >= 7, `${files.length} route modules`);
    for (const file of files) {
      const src = readFileSync(`${ROUTES}/${file}`, 'utf8');
      const name = file.replace(/\.ts$/, '');
      assert.match(src, new RegExp(`^export const ${name}: FastifyPluginAsync<`, 'm'), `${file} exports the plugin ${name}`);
      assert.ok(ROUTE_CALL.test(src), `${file} declares a route`);
      assert.doesNotMatch(src, /^(let|var)\s/m, `${file} keeps its state inside the plugin, per app`);
      assert.doesNotMatch(src, /from '\.\.\/buildApp\.js'/, `${file} imports buildApp.ts (an import circle)`);
    }
  });
});
