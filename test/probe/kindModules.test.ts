// The probe kinds as plug-ins: each one module of src/probe/kinds/ listed in one map, and the
// steps around their samples (runSamples) in one place.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROBE_KINDS_NAMES } from '../../src/config/probeKindTypes.js';
import { FINDING_KINDS } from '../../src/core/finding.js';
import { errorSample } from '../../src/probe/judgeSample.js';
import { PROBE_KIND_FINDING_KINDS, PROBE_KINDS, SAMPLE_FINDING_KINDS } from '../../src/probe/kinds/index.js';
import { runSamples } from '../../src/probe/kinds/runSamples.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { SAMPLE_LEVEL_FINDING_KINDS } from '../../src/probe/probeTypes.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { repoRoot } from '../helpers/repoRoot.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

const kindsDir = join(repoRoot(), 'src', 'probe', 'kinds');
/** The modules of kinds/ that are no kind: the map, and the steps the kinds share. */
const SHARED = ['index.ts', 'runSamples.ts', 'withJudgement.ts'];

describe('the kinds map', () => {
  it('has every kind the config knows, each under its own name', () => {
    assert.deepEqual(Object.keys(PROBE_KINDS), [...PROBE_KINDS_NAMES]);
    for (const [name, kind] of Object.entries(PROBE_KINDS)) assert.equal(kind.name, name);
  });

  it('lists each module of kinds/ once, the module named after its kind and exporting `<name>Kind`', () => {
    const modules = readdirSync(kindsDir).filter((f) => f.endsWith('.ts') && !SHARED.includes(f));
    assert.deepEqual(modules.sort(), PROBE_KINDS_NAMES.map((n) => `${n}Kind.ts`).sort());
    for (const name of PROBE_KINDS_NAMES) {
      const source = readFileSync(join(kindsDir, `${name}Kind.ts`), 'utf8');
      assert.match(source, new RegExp(`^export const ${name}Kind: ProbeKindModule<'${name}'> = \\{$`, 'm'), `${name}Kind.ts`);
    }
  });

  it('derives the finding kinds: each kind its own, none an analyzer kind, in the order docs/metrics.md lists them', () => {
    assert.deepEqual(PROBE_KIND_FINDING_KINDS, ['recall_missed', 'contamination', 'codeword_missing', 'conformance', 'golden_wrong']);
    assert.equal(new Set(PROBE_KIND_FINDING_KINDS).size, PROBE_KIND_FINDING_KINDS.length);
    for (const kind of PROBE_KIND_FINDING_KINDS) assert.ok(!(FINDING_KINDS as readonly string[]).includes(kind), kind);
    assert.deepEqual(SAMPLE_FINDING_KINDS, [...SAMPLE_LEVEL_FINDING_KINDS, ...PROBE_KIND_FINDING_KINDS]);
  });

  it('says how many samples a run has, by kind', () => {
    assert.equal(PROBE_KINDS.generation.samplesPerRun(testProbe({ samples: 2, temperatures: [0, 0.6] })), 4);
    assert.equal(PROBE_KINDS.recall.samplesPerRun(testProbe({ samples: 3 })), 3);
    assert.equal(PROBE_KINDS.contamination.samplesPerRun(testProbe({ samples: 2 })), 2);
    assert.equal(PROBE_KINDS.conformance.samplesPerRun(testProbe({ samples: 5 })), 1);
    assert.equal(PROBE_KINDS.golden.samplesPerRun(testProbe({ samples: 5 })), 5);
    assert.equal(PROBE_KINDS.golden.samplesPerRun(testProbe({ samples: 2, temperatures: [0, 0.6] })), 4);
  });
});

function deps(over: Partial<ProbeDeps> = {}): ProbeDeps {
  return {
    stream: async () => {
      throw new Error('no stream here');
    },
    env: {},
    now: () => 1_000,
    logger: silentLogger,
    newId: () => 'run-1',
    ...over,
  };
}

describe('runSamples', () => {
  it('turns a crashed sample into an internal error, gives its slot back, and tells the observer', async () => {
    let held = 0;
    const seen: string[] = [];
    const log = captureLogger();
    const run = await runSamples(
      testTarget(),
      testProbe(),
      deps({
        logger: log.logger,
        slots: {
          acquire: async () => {
            held++;
            return () => held--;
          },
        },
        observer: {
          sampleStarted: (_t, _p, i) => seen.push(`start ${i}`),
          sampleFinished: (_t, _p, s) => seen.push(`finish ${s.index} ${s.verdict}`),
        },
      }),
      'manual',
      async (r) => {
        const crashed = await r.sample(0, async () => {
          throw new Error('a bug of ours');
        });
        r.finish(crashed!);
        const fine = await r.sample(1, async () => ({ ...errorSample(1, 'connect', 'refused') }));
        r.finish(fine!);
      },
    );
    assert.equal(held, 0, 'every slot was given back');
    assert.deepEqual(seen, ['start 0', 'finish 0 error', 'start 1', 'finish 1 error']);
    assert.equal(run.samples[0]!.error?.type, 'internal');
    assert.match(run.samples[0]!.error!.message, /a bug of ours/);
    assert.deepEqual(
      { id: run.id, trigger: run.trigger, verdict: run.verdict, n: run.samples.length },
      { id: 'run-1', trigger: 'manual', verdict: 'error', n: 2 },
    );
    const lines = log
      .text()
      .split('\n')
      .filter((l) => l.includes('"run":"run-1"'))
      .map((l) => JSON.parse(l).msg);
    assert.deepEqual(lines, ['sample crashed', 'sample finished', 'sample finished']);
  });

  it('sends nothing once the daemon shut down, also while a sample waited for its slot', async () => {
    const stop = new AbortController();
    let sent = 0;
    let held = 0;
    const run = await runSamples(
      testTarget(),
      testProbe(),
      deps({
        signal: stop.signal,
        slots: {
          acquire: async () => {
            held++;
            stop.abort();
            return () => held--;
          },
        },
      }),
      'schedule',
      async (r) => {
        const first = await r.sample(0, async () => {
          sent++;
          return errorSample(0, 'connect', 'refused');
        });
        assert.equal(first, null);
        assert.equal(
          await r.sample(1, async () => {
            sent++;
            return errorSample(1, 'connect', 'refused');
          }),
          null,
        );
      },
    );
    assert.equal(sent, 0);
    assert.equal(held, 0);
    assert.deepEqual({ verdict: run.verdict, samples: run.samples.length }, { verdict: 'error', samples: 0 });
  });
});
