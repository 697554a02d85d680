// README's cost note, kept true: the series one target x probe costs Prometheus after a run
// (with and without reasoning text, for each metrics.detail), measured the way
// `npm run bench -- series` does, on a live daemon's /metrics; and the output tokens a day of
// the probes built from OPENAI_BASE_URL.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import cron from 'node-cron';
import { countSeries } from '../../bench/series.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { conformanceTokenBudget } from '../../src/probe/conformance/index.js';
import { scheduleIntervalSeconds } from '../../src/scheduler/createScheduler.js';
import { repoPath } from '../helpers/repoRoot.js';

/** The series budget of issue 11: a probe exporter costs tens of series per probe, not hundreds. */
const BASIC_BUDGET = 100;

test("README's cost note gives the series one target x probe costs, within the budget by default", async () => {
  const basic = await countSeries('basic');
  const full = await countSeries('full');
  assert.ok(
    basic.plain <= BASIC_BUDGET && basic.reasoning <= BASIC_BUDGET,
    `basic: ${basic.plain} and ${basic.reasoning} series, budget ${BASIC_BUDGET}`,
  );
  const readme = readFileSync(repoPath('README.md'), 'utf8');
  const m = /costs about \*\*(\d+) series\*\* per target and probe \((\d+) for a model that streams reasoning\)/.exec(readme);
  assert.ok(m, `README states the series cost per target and probe (measured ${basic.plain} and ${basic.reasoning})`);
  assert.deepEqual([Number(m[1]), Number(m[2])], [basic.plain, basic.reasoning], `measured ${basic.plain} and ${basic.reasoning}`);
  const f = /`metrics\.detail: full`\s+costs \*\*(\d+)\*\* \((\d+) with reasoning\)/.exec(readme);
  assert.ok(f, `README states the series cost with metrics.detail: full (measured ${full.plain} and ${full.reasoning})`);
  assert.deepEqual([Number(f[1]), Number(f[2])], [full.plain, full.reasoning], `measured ${full.plain} and ${full.reasoning}`);
  const h = /100 target×probe pairs are \*\*([\d.]+)k-([\d.]+)k series\*\*/.exec(readme);
  assert.ok(h, 'README states the series of 100 pairs');
  assert.deepEqual([h[1], h[2]], [(basic.plain / 10).toFixed(1), (basic.reasoning / 10).toFixed(1)]);
});

test("README's cost note gives the output tokens a day of the default probes", () => {
  let perDay = 0;
  for (const p of DEFAULTS.envFallback.probes) {
    const task = cron.createTask(p.schedule, () => {});
    const interval = scheduleIntervalSeconds(task);
    task.destroy();
    assert.ok(interval, p.schedule);
    // a conformance run sends a few short requests, each with its own cap
    const perRun =
      'kind' in p && p.kind === 'conformance' ? conformanceTokenBudget(p.maxTokens, DEFAULTS.probeKinds.conformance.checks) : p.maxTokens;
    perDay += (86_400 / interval) * perRun;
  }
  const readme = readFileSync(repoPath('README.md'), 'utf8');
  const m = /at most \*\*([\d,]+) output tokens a day\*\* per target/.exec(readme);
  assert.ok(m, `README states the tokens a day (computed ${perDay})`);
  assert.equal(Number(m[1]!.replace(/,/g, '')), perDay);
});
