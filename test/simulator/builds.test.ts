import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILDS, buildSource, splitBuildPath } from '../../src/simulator/builds.js';
import { healthySource } from '../../src/simulator/scenarios/healthy.js';
import { takeSource, type TokenSource } from '../../src/simulator/tokenSource.js';

const drain = (source: TokenSource, max = 2000) => {
  const out: string[] = [];
  for (let t = source.next(); t !== null && out.length < max; t = source.next()) out.push(t.text);
  return out;
};

describe('simulator builds', () => {
  it('splits /build/NAME@N/ off the path; anything else is an error naming the builds', () => {
    const r = splitBuildPath('/build/drift@300/v1/chat/completions');
    assert.ok(r.ok && r.build);
    assert.equal(r.build.definition.name, 'drift');
    assert.equal(r.build.at, 300);
    assert.equal(r.path, '/v1/chat/completions');
    const plain = splitBuildPath('/v1/models');
    assert.ok(plain.ok && plain.build === null && plain.path === '/v1/models');
    for (const bad of ['/build/drift/v1', '/build/better@3/v1', '/build/degraded@x/v1', '/build//v1']) {
      const b = splitBuildPath(bad);
      assert.ok(!b.ok, bad);
      assert.match(b.message, /use \/build\/NAME@N\/ with NAME one of drift, degraded/);
    }
  });

  it('each build sends the same tokens as /v1 up to N, then others; the same request, the same output', () => {
    const healthy = drain(healthySource(7));
    for (const definition of BUILDS) {
      const build = { definition, at: 300 };
      const tokens = drain(buildSource(build, healthySource(7), 7));
      assert.deepEqual(tokens.slice(0, 300), healthy.slice(0, 300), definition.name);
      assert.notDeepEqual(tokens.slice(300, 310), healthy.slice(300, 310), definition.name);
      assert.deepEqual(drain(buildSource(build, healthySource(7), 7)), tokens, `${definition.name} is deterministic`);
    }
  });

  it('jitter: the same request answered twice departs after N, never before', () => {
    const jitter = { definition: BUILDS.find((b) => b.name === 'jitter')!, at: 300 };
    const [one, two] = [0, 1].map((nth) => drain(buildSource(jitter, healthySource(7), 7, nth)));
    assert.deepEqual(one!.slice(0, 300), two!.slice(0, 300));
    assert.notDeepEqual(one!.slice(300, 310), two!.slice(300, 310));
  });

  it('a text that ends before N ends as it did', () => {
    const build = { definition: BUILDS[1]!, at: 300 };
    assert.deepEqual(drain(buildSource(build, takeSource(healthySource(3), 50), 3)), drain(takeSource(healthySource(3), 50)));
  });
});
