import type { Comparison, OutputRow } from './compareBaselines.js';
import { spreadText } from './selfDeparture.js';

const quote = (s: string) => JSON.stringify(s);

/** Pads each column to its widest cell; the last column is left ragged. */
function columns(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** How a departure stands against the build's own spread: "" when the baseline has none. */
function againstSpread(o: OutputRow): string {
  if (o.selfDeparture === null) return '';
  return o.changed
    ? `, earlier than the build's own spread (${spreadText(o.selfDeparture)})`
    : `, within the build's own spread (${spreadText(o.selfDeparture)}): not a change`;
}

/**
 * The comparison as the terminal shows it: a row per target × probe and figure (before, after,
 * change, and why it fails the gate), the outputs at temperature 0 with where each departs,
 * what the targets now say differently of themselves, and the outcome in one line.
 */
export function comparisonTable(c: Comparison): string {
  const lines = [`compared with the baseline of ${c.baselineCreatedAt}:`, ''];
  const cells = [['target/probe', 'figure', 'before', 'after', 'change', '']];
  let last = '';
  for (const r of c.rows) {
    const pair = `${r.target}/${r.probe}`;
    cells.push([pair === last ? '' : pair, r.figure, r.before, r.after, r.change, r.regressed ? `WORSE: ${r.why}` : '']);
    last = pair;
  }
  lines.push(...columns(cells).map((l) => `  ${l}`));
  if (c.outputs.length || c.outputsMissing.length) {
    lines.push('', 'outputs at temperature 0, token by token:');
    for (const o of c.outputs) {
      const x = o.comparison;
      const label = `${o.target}/${o.probe} #${x.sample}`;
      if (x.identical) {
        lines.push(`  ${label}: identical (${x.comparedTokens} tokens)`);
        continue;
      }
      lines.push(`  ${label}: departs at token ${x.tokenIndex} (char ${x.charOffset})${againstSpread(o)}, after ${quote(x.context)}`);
      lines.push(`    before: ${quote(x.before)}`, `    after:  ${quote(x.after)}`);
    }
    for (const m of c.outputsMissing) lines.push(`  ${m}: no output to compare (the sample has none now)`);
    if (c.outputs.some((o) => o.changed))
      lines.push('  (a departure at temperature 0 means changed numerics, even where both outputs read well)');
  }
  if (c.fingerprintChanges.length) {
    // what changed beside how quality changed; never a failure by itself ("–": not read on that side)
    lines.push('', 'what the targets say of themselves, changed (not judged):');
    for (const f of c.fingerprintChanges) lines.push(`  ${f.target}: ${f.field} ${f.before ?? '–'} → ${f.after ?? '–'}`);
  }
  const worse = c.rows.filter((r) => r.regressed).length;
  const departed = c.outputs.filter((o) => o.changed).length;
  lines.push(
    '',
    c.regressed
      ? `result: REGRESSED (${[worse ? `${worse} figure${worse === 1 ? '' : 's'} worse than the tolerances allow` : '', departed && !worse ? `${departed} output${departed === 1 ? '' : 's'} departed (--fail-on-divergence)` : ''].filter(Boolean).join('; ')})`
      : `result: no regression beyond the tolerances${c.errorsRose ? ' (but more samples errored than in the baseline)' : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
