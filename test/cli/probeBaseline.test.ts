// probe --save-baseline and --baseline in process, against the simulator and its other builds
// (/build/drift@N: the same output up to token N, then other healthy prose; /build/degraded@N:
// then a loop): the gate's exit codes, its table and --json, where an output at temperature 0
// departs, the refusals, and what the file never holds.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Baseline } from '../../src/baseline/baselineFormat.js';
import type { Comparison } from '../../src/baseline/compareBaselines.js';
import { main } from '../../src/cli.js';
import { VERSION } from '../../src/version.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { cliIO } from '../helpers/cliIO.js';

const dir = mkdtempSync(join(tmpdir(), 'coherency-baseline-'));
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

const DEPART_AT = 300;
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
async function probe(args: string[], env: Record<string, string> = {}) {
  const x = cliIO('', env);
  const code = await main(args, x.io);
  return { code, out: x.out(), err: x.err() };
}
const readBaseline = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Baseline;

describe('probe --save-baseline, then --baseline', { timeout: 60_000 }, () => {
  const file = join(dir, 'before.json');
  const saved = join(dir, 'saved');

  it('--save-baseline writes the figures and the tokens of the output at temperature 0, and nothing beside it', async () => {
    const r = await probe(flags('/v1', ['--save-baseline', file, '--save', join(saved, 'before')]));
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /baseline saved to /);
    const b = readBaseline(file);
    assert.equal(b.format, 'coherency-baseline');
    assert.equal(b.formatVersion, 1);
    assert.equal(b.pairs.length, 1);
    const p = b.pairs[0]!;
    assert.deepEqual([p.target, p.probe, p.verdicts, p.settings.seed, p.settings.temperature], ['cli', 'probe', ['ok'], 42, 0]);
    assert.equal(p.outputs.length, 1);
    assert.equal(p.outputs[0]!.tokens.join(''), readFileSync(join(saved, 'before', 'cli', 'probe', 'sample-0', 'output.txt'), 'utf8'));
    assert.ok(p.latency.ttftSeconds !== null && p.latency.itlSeconds !== null);
    assert.deepEqual(Object.keys(b.fingerprints), ['cli']);
    assert.equal(b.fingerprints['cli']!['origin'], `${root}/v1`);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
  });

  it('the same build: exit 0, every output identical', async () => {
    const r = await probe(flags('/v1', ['--baseline', file]));
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /compared with the baseline of /);
    assert.match(r.out, /cli\/probe #0: identical \(\d+ tokens\)/);
    assert.match(r.out, /result: no regression beyond the tolerances\n$/);
  });

  it('a degraded build: exit 1, the failed share and the onset named, the departure at the known token', async () => {
    const r = await probe(flags(`/build/degraded@${DEPART_AT}/v1`, ['--baseline', file]));
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /failed share +0% +100% +\+100 pts +WORSE: failed share \+100 points > --max-failed-rise 0/);
    // the analyzer places the loop at the build's departure, give or take the token of its first space
    const onset = Number(/collapse onset +– +token (\d+) +new/.exec(r.out)?.[1]);
    assert.ok(onset >= DEPART_AT && onset <= DEPART_AT + 1, r.out);
    assert.match(r.out, /cli\/probe #0: departs at token \d+ \(char \d+\)/);
    assert.match(r.out, /result: REGRESSED/);
  });

  it('a build whose numerics changed but reads well: exit 0, the first diverging token reported; 1 with --fail-on-divergence', async () => {
    const r = await probe(flags(`/build/drift@${DEPART_AT}/v1`, ['--baseline', file, '--json', '--save', join(saved, 'drift')]));
    assert.equal(r.code, 0, r.out + r.err);
    const doc = JSON.parse(r.out) as { exitCode: number; comparison: Comparison };
    assert.equal(doc.exitCode, 0);
    assert.equal(doc.comparison.regressed, false);
    const x = doc.comparison.outputs[0]!.comparison;
    assert.ok(!x.identical, 'the drifted output departs');
    // where the texts part, found here without the tool's tokens: the departing token starts at or just before it
    const [a, b] = ['before', 'drift'].map((w) => readFileSync(join(saved, w, 'cli', 'probe', 'sample-0', 'output.txt'), 'utf8')) as [
      string,
      string,
    ];
    let common = 0;
    while (a[common] === b[common]) common++;
    assert.ok(x.charOffset <= common && common - x.charOffset < 12, `departs at char ${x.charOffset}, the texts part at ${common}`);
    const tokens = readBaseline(file).pairs[0]!.outputs[0]!.tokens;
    assert.equal(tokens.slice(0, x.tokenIndex).join(''), a.slice(0, x.charOffset));
    assert.notEqual(tokens[x.tokenIndex], b.slice(x.charOffset, x.charOffset + tokens[x.tokenIndex]!.length));
    // the simulator departs at its token 300; the tool's split of prose counts within a tenth of that
    assert.ok(Math.abs(x.tokenIndex - DEPART_AT) <= DEPART_AT / 10, `token ${x.tokenIndex}`);
    assert.ok(x.before.length > 0 && x.after.length > 0 && x.before !== x.after);
    const strict = await probe(flags(`/build/drift@${DEPART_AT}/v1`, ['--baseline', file, '--fail-on-divergence']));
    assert.equal(strict.code, 1, strict.out);
    assert.match(strict.out, /result: REGRESSED \(1 output departed \(--fail-on-divergence\)\)/);
  });

  it('a baseline of other probe settings, or another version, is refused before anything is sent (exit 2)', async () => {
    const sent = sim.requests.length;
    const other = await probe(['probe', '--base-url', `${root}/v1`, '--model', 'healthy', '--max-tokens', '1000', '--baseline', file]);
    assert.equal(other.code, 2);
    assert.match(
      other.err,
      /^error: --baseline .*before\.json: refused: probe probe of target cli has other settings than in the baseline: maxTokens 1500 then, 1000 now; temperature 0 then, 0\.6 now; minTokens 1500 then, 0 now; seed \(extraBody\.seed\) 42 then, null now/,
    );
    const doc = readBaseline(file);
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...doc, tool: { ...doc.tool, version: '0.0.1' } }));
    const version = await probe(flags('/v1', ['--baseline', old]));
    assert.equal(version.code, 2);
    assert.match(version.err, new RegExp(`made by coherency-exporter 0\\.0\\.1, this is ${VERSION.replaceAll('.', '\\.')}`));
    const format = join(dir, 'format.json');
    writeFileSync(format, JSON.stringify({ ...doc, formatVersion: 99 }));
    assert.match((await probe(flags('/v1', ['--baseline', format]))).err, /format version 99 .* reads format 1/);
    assert.equal(sim.requests.length, sent, 'no request for a refused gate');
  });

  it('an unreadable or corrupt baseline, a bad tolerance, a folder that is not there: exit 2, one line naming it', async () => {
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, readFileSync(file, 'utf8').slice(0, 500));
    const cases: [string[], RegExp][] = [
      [flags('/v1', ['--baseline', cut]), /--baseline .*cut\.json: not JSON/],
      [flags('/v1', ['--baseline', join(dir, 'none.json')]), /none\.json: cannot read it: no such file/],
      [flags('/v1', ['--baseline', dir]), /cannot read it: is a directory/],
      [flags('/v1', ['--baseline', file, '--max-failed-rise', '3']), /--max-failed-rise: a number from 0 to 1, got "3"/],
      [flags('/v1', ['--max-onset-drop', '0.5']), /--max-onset-drop: goes with --baseline FILE/],
      [flags('/v1', ['--save-baseline', join(dir, 'no', 'such', 'b.json')]), /the folder .*no\/such does not exist/],
      [flags('/v1', ['--seed', 'x']), /--seed: an integer, got "x"/],
    ];
    for (const [args, want] of cases) {
      const r = await probe(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, want);
    }
  });

  it('a baseline of samples that errored is saved with a warning, and the usual exit status', async () => {
    const errored = join(dir, 'errored.json');
    const r = await probe(['probe', '--base-url', `${root}/v1`, '--model', 'fault-500', '--max-tokens', '100', '--save-baseline', errored]);
    assert.equal(r.code, 3, r.err);
    assert.match(r.err, /warning: 1 sample of the baseline errored: nothing to compare with there/);
    assert.deepEqual(readBaseline(errored).pairs[0]!.verdicts, ['error']);
  });

  it('a new baseline replaces the old one whole; comparing and saving may go together', async () => {
    const next = join(dir, 'next.json');
    writeFileSync(next, 'old');
    const r = await probe(flags(`/build/drift@${DEPART_AT}/v1`, ['--baseline', file, '--save-baseline', next, '--quiet']));
    assert.equal(r.code, 0, r.err);
    assert.equal(readBaseline(next).fingerprints['cli']!['origin'], `${root}/build/drift@${DEPART_AT}/v1`);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  });
});

describe('help', () => {
  it('probe --help lists every tolerance with its default; simulate --help the builds', async () => {
    const h = await probe(['probe', '--help']);
    for (const line of [
      /--max-failed-rise X +rise of the failed-sample share \(default 0\)/,
      /--max-onset-drop X .*\(default 0\.25\)/,
      /--max-ttft-rise X .*\(default none: reported only\)/,
      /--fail-on-divergence/,
      /--save-baseline F/,
    ])
      assert.match(h.out, line);
    const s = await probe(['simulate', '--help']);
    assert.match(s.out, /\/build\/NAME@N\/v1/);
    assert.match(s.out, /^ {2}drift +the same output up to token N/m);
    assert.match(s.out, /^ {2}degraded +the same output up to token N/m);
  });
});

describe('the baseline file never holds the API key', { timeout: 30_000 }, () => {
  it('even when the server echoes it in the output kept as tokens', async () => {
    const KEY = 'sk-canary-baseline-0123456789';
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', server: `echo ${req.headers.authorization ?? ''}` });
        const text = `you sent ${req.headers.authorization ?? ''}. `;
        res.end(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const file = join(dir, 'key.json');
      const args = ['probe', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--api-key-env', 'ECHO_KEY'];
      const r = await probe([...args, '--max-tokens', '50', '--temperature', '0', '--seed', '1', '--save-baseline', file], {
        ECHO_KEY: KEY,
      });
      assert.ok(r.code === 0 || r.code === 1, r.err);
      const text = readFileSync(file, 'utf8');
      assert.ok(readBaseline(file).pairs[0]!.outputs[0]!.tokens.length > 0, 'the output was kept');
      assert.ok(!text.includes(KEY) && !text.includes('canary'), 'the baseline holds the key');
      assert.ok(existsSync(file));
    } finally {
      server.close();
    }
  });
});

// The build's own spread (issue 40, item 4): `probe --save-baseline` sends the requests at
// temperature 0 again (--repeat, default 2) and keeps where the outputs depart from each other;
// `probe --baseline` calls a departure a change only when it comes earlier than that. /v1 never
// departs from itself, /build/jitter@N/v1 does after token N (an unchanged server whose greedy
// outputs part late), /build/drift@N/v1 is a changed build.
const JITTER_AT = 900;
const DRIFT_AT = DEPART_AT;
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
