// The dashboard's "Target changes" annotation, evaluated by promtool on made-up series: it marks
// the minutes in which coherency_target_changes_total rose, and not an exporter restart (the
// counter back at 0). Its metric names and labels are checked in test/grafana/dashboard.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { expandVariables, loadDashboard } from '../grafana/dashboardQueries.js';
import { makeTempDir, requireTool, ROOT, runCommand } from '../helpers/integrationProcess.js';

it('the target-change annotation fires in the minutes of a change only, not at a restart', { timeout: 60_000 }, async (t) => {
  const tool = requireTool('promtool');
  if (tool.skip !== null) return t.skip(tool.skip);
  const dashboard = loadDashboard(ROOT);
  const list = (dashboard['annotations'] as { list: { name: string; expr?: string }[] }).list;
  const raw = list.find((a) => a.name === 'Target changes')?.expr;
  assert.ok(raw, 'no "Target changes" annotation');
  const expr = expandVariables(raw, { target: '.*', __interval: '2m' });
  // target a: changes at minute 10, the exporter restarts at minute 31 (the counter starts at 0 again); b never changes
  const tests = `
rule_files: []
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'coherency_target_changes_total{job="coherency-exporter",instance="10.0.0.1:9464",target="a"}'
        values: '0x9 1x20 0x10'
      - series: 'coherency_target_changes_total{job="coherency-exporter",instance="10.0.0.1:9464",target="b"}'
        values: '0x40'
    promql_expr_test:
      - expr: '${expr.replace(/'/g, "''")}'
        eval_time: 5m
        exp_samples: []
      - expr: '${expr.replace(/'/g, "''")}'
        eval_time: 11m
        exp_samples:
          - labels: '{target="a"}'
            value: 1
      - expr: '${expr.replace(/'/g, "''")}'
        eval_time: 20m
        exp_samples: []
      - expr: '${expr.replace(/'/g, "''")}'
        eval_time: 32m
        exp_samples: []
`;
  const tmp = makeTempDir('annotation');
  try {
    const file = join(tmp.dir, 'annotation.test.yml');
    writeFileSync(file, tests);
    const result = await runCommand(tool.path, ['test', 'rules', file]);
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
  } finally {
    tmp.remove();
  }
});
