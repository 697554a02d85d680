import type { ConformanceOutcome, Evidence } from '../probe/conformance/checkTypes.js';

/** "8 checks: 6 passed, 1 failed, 1 skipped". */
export function checklistSummary(o: ConformanceOutcome): string {
  const n = (status: string) => o.checks.filter((c) => c.status === status).length;
  return `${o.checks.length} checks: ${n('pass')} passed, ${n('fail')} failed, ${n('skipped')} skipped`;
}

function evidenceLine(e: Evidence): string {
  return Object.entries(e)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
}

/** The checklist as the report prints it: one line per check (verdict, name, reason, what was seen), the evidence under each failed one. */
export function checklistLines(o: ConformanceOutcome): string[] {
  const width = Math.max(...o.checks.map((c) => c.check.length), 5);
  const reasonWidth = Math.max(...o.checks.map((c) => c.reason.length), 2);
  const lines: string[] = [];
  for (const c of o.checks) {
    const verdict = c.status === 'fail' ? 'FAIL' : c.status;
    lines.push(`  ${verdict.padEnd(7)}  ${c.check.padEnd(width)}  ${c.reason.padEnd(reasonWidth)}  ${c.detail}`);
    if (c.status === 'fail' && Object.keys(c.evidence).length > 0)
      lines.push(`  ${' '.repeat(9 + width + 2)}evidence: ${evidenceLine(c.evidence)}`);
  }
  return lines;
}
