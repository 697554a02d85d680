// The build's own spread (issue 40, item 4): `probe --save-baseline` sends the requests at
// temperature 0 again (--repeat, default 2) and keeps where the outputs depart from each other;
// `probe --baseline` calls a departure a change only when it comes earlier than that. Against
// the simulator: /v1 never departs from itself, /build/jitter@N/v1 does after token N (an
// unchanged server whose greedy outputs part late), /build/drift@N/v1 is a changed build.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Baseline } from '../../src/baseline/baselineFormat.js';
import type { Comparison } from '../../src/baseline/compareBaselines.js';
import { main } from '../../src/cli.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { cliIO } from '../helpers/cliIO.js';

const dir = mkdtempSync(join(tmpdir(), 'coherency-spread-'));
let sim: Simulator;
let root = '';
before(async () => {
  sim = await startSimulator({ port: 0 });
  root = sim.url.replace(/\/v1$/, '');
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const JITTER_AT = 900;
const DRIFT_AT = 300;
const flags = (path: string, more: string[] = []) => [
  'probe',
  '--base-url',
  `${root}${path}`,
  '--model',
  'healthy',
  '--max-tokens',
  '1500',
  '--temperature',
  '0',
  '--seed',
  '42',
  ...more,
];
async function probe(args: string[]) {
  const x = cliIO('', {});
  const code = await main(args, x.io);
  return { code, out: x.out(), err: x.err() };
}
const readBaseline = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Baseline;

describe("a baseline keeps the build's own spread", { timeout: 90_000 }, () => {
  const steady = join(dir, 'steady.json');
  const jitter = join(dir, 'jitter.json');

  it('an unchanged, repeatable build: two runs by default, the cost said, never departed', async () => {
    const sent = sim.requests.length;
    const r = await probe(flags('/v1', ['--save-baseline', steady]));
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /baseline: the requests at temperature 0 of cli\/probe are sent 2 times \(2x their tokens\).*--repeat 1 to skip/);
    assert.equal(sim.requests.length - sent, 2);
    assert.deepEqual(readBaseline(steady).pairs[0]!.selfDeparture, { repeats: 2, tokenIndex: null });
    // and the same build gated against it: identical
    const again = await probe(flags('/v1', ['--baseline', steady, '--fail-on-divergence']));
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /cli\/probe #0: identical/);
  });

  it('--repeat 1 skips it (the figure is absent), --repeat 3 sends three', async () => {
    const one = join(dir, 'one.json');
    let sent = sim.requests.length;
    assert.equal((await probe(flags('/v1', ['--save-baseline', one, '--repeat', '1']))).code, 0);
    assert.equal(sim.requests.length - sent, 1);
    assert.equal(readBaseline(one).pairs[0]!.selfDeparture, undefined);
    sent = sim.requests.length;
    assert.equal((await probe(flags('/v1', ['--save-baseline', one, '--repeat', '3', '--quiet']))).code, 0);
    assert.equal(sim.requests.length - sent, 3);
    assert.deepEqual(readBaseline(one).pairs[0]!.selfDeparture, { repeats: 3, tokenIndex: null });
  });

  it('an unchanged build whose outputs part late: saved twice, not reported as departing when gated', async () => {
    const s = await probe(flags(`/build/jitter@${JITTER_AT}/v1`, ['--save-baseline', jitter]));
    assert.equal(s.code, 0, s.err);
    const self = readBaseline(jitter).pairs[0]!.selfDeparture!;
    assert.equal(self.repeats, 2);
    // the simulator departs at its token 900; the tool's split of prose counts within a tenth of that
    assert.ok(self.tokenIndex !== null && Math.abs(self.tokenIndex - JITTER_AT) <= JITTER_AT / 10, `token ${self.tokenIndex}`);
    const r = await probe(flags(`/build/jitter@${JITTER_AT}/v1`, ['--baseline', jitter, '--fail-on-divergence']));
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(
      r.out,
      new RegExp(
        `cli/probe #0: departs at token \\d+ \\(char \\d+\\), within the build's own spread \\(departed at token ${self.tokenIndex} in 2 runs\\): not a change`,
      ),
    );
    assert.doesNotMatch(r.out, /means changed numerics/);
    assert.match(r.out, /result: no regression beyond the tolerances\n$/);
  });

  it('a changed build departs earlier than the spread: reported as a change, exit 1 with --fail-on-divergence', async () => {
    const r = await probe(flags(`/build/drift@${DRIFT_AT}/v1`, ['--baseline', jitter, '--json']));
    assert.equal(r.code, 0, r.out + r.err);
    const doc = JSON.parse(r.out) as { comparison: Comparison };
    const o = doc.comparison.outputs[0]!;
    assert.equal(o.changed, true);
    assert.deepEqual(o.selfDeparture, readBaseline(jitter).pairs[0]!.selfDeparture);
    const strict = await probe(flags(`/build/drift@${DRIFT_AT}/v1`, ['--baseline', jitter, '--fail-on-divergence']));
    assert.equal(strict.code, 1, strict.out);
    assert.match(
      strict.out,
      /cli\/probe #0: departs at token \d+ \(char \d+\), earlier than the build's own spread \(departed at token \d+ in 2 runs\)/,
    );
    assert.match(strict.out, /result: REGRESSED \(1 output departed \(--fail-on-divergence\)\)/);
    // a build that never departed from itself: the drift is earlier than its spread too
    const steady2 = await probe(flags(`/build/drift@${DRIFT_AT}/v1`, ['--baseline', steady, '--fail-on-divergence']));
    assert.equal(steady2.code, 1, steady2.out);
    assert.match(steady2.out, /earlier than the build's own spread \(never departed in 2 runs\)/);
  });

  it('a baseline without the figure (an earlier build) is read and judged as before', async () => {
    const old = join(dir, 'old.json');
    const doc = readBaseline(jitter);
    delete doc.pairs[0]!.selfDeparture;
    writeFileSync(old, JSON.stringify(doc));
    const r = await probe(flags(`/build/jitter@${JITTER_AT}/v1`, ['--baseline', old, '--fail-on-divergence']));
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /cli\/probe #0: departs at token \d+ \(char \d+\), after /);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...doc, pairs: [{ ...doc.pairs[0], selfDeparture: { repeats: 1, tokenIndex: 'x' } }] }));
    const b = await probe(flags('/v1', ['--baseline', bad]));
    assert.equal(b.code, 2);
    assert.match(b.err, /pairs\[0\]\.selfDeparture: needs repeats \(2 or more\) and tokenIndex/);
  });

  it('a bad --repeat, or one without --save-baseline or without outputs to repeat: exit 2 before anything is sent', async () => {
    const sent = sim.requests.length;
    const cases: [string[], RegExp][] = [
      [flags('/v1', ['--save-baseline', join(dir, 'r.json'), '--repeat', '0']), /--repeat: an integer from 1 to 10, got "0"/],
      [flags('/v1', ['--save-baseline', join(dir, 'r.json'), '--repeat', 'two']), /--repeat: an integer from 1 to 10, got "two"/],
      [flags('/v1', ['--repeat', '2']), /--repeat: goes with --save-baseline FILE/],
      [
        ['probe', '--base-url', `${root}/v1`, '--model', 'healthy', '--save-baseline', join(dir, 'r.json'), '--repeat', '2'],
        /--repeat: no selected probe keeps its outputs \(temperature 0 with a seed/,
      ],
    ];
    for (const [args, want] of cases) {
      const r = await probe(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, want);
    }
    assert.equal(sim.requests.length, sent);
  });
});
