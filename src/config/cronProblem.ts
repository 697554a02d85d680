/**
 * Checks a cron expression field by field, so that "*\/61 * * * *" and "every 5 minutes"
 * get an error that says what is wrong and what the format is (node-cron's own check
 * accepts out-of-range steps). Returns null when the expression is valid.
 */
const FIELDS: ReadonlyArray<{ name: string; min: number; max: number; names?: readonly string[] }> = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

export const CRON_FORMAT =
  'five fields "minute hour day-of-month month day-of-week" (or six, with seconds first), e.g. "*/30 * * * *" for every 30 minutes or "0 3 * * *" for 03:00 daily';

export function cronProblem(expression: string): string | null {
  const parts = expression.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5 && parts.length !== 6) return `has ${parts.length} field${parts.length === 1 ? '' : 's'}; expected ${CRON_FORMAT}`;
  const fields = parts.length === 5 ? FIELDS.slice(1) : FIELDS;
  for (let i = 0; i < parts.length; i++) {
    const problem = fieldProblem(parts[i]!, fields[i]!);
    if (problem) return `${fields[i]!.name} field "${parts[i]}": ${problem}; expected ${CRON_FORMAT}`;
  }
  return null;
}

function fieldProblem(field: string, f: (typeof FIELDS)[number]): string | null {
  for (const item of field.split(',')) {
    const m = /^([^/]+)(?:\/(.+))?$/.exec(item);
    if (!m) return `"${item}" is not a value, a range or a step`;
    const [, base, step] = m as unknown as [string, string, string | undefined];
    if (step !== undefined) {
      if (!/^\d+$/.test(step)) return `step "${step}" is not a whole number`;
      const n = Number(step);
      if (n < 1 || n > f.max) return `step ${n} is out of 1-${f.max}`;
    }
    if (base === '*') continue;
    const range = base.split('-');
    if (range.length > 2) return `"${base}" is not a value or a range`;
    const values: number[] = [];
    for (const v of range) {
      const n = fieldValue(v, f);
      if (n === null) return `"${v}" is not a number${f.names ? ' or a name' : ''}`;
      if (n < f.min || n > f.max) return `${n} is out of ${f.min}-${f.max}`;
      values.push(n);
    }
    if (values.length === 2 && values[0]! > values[1]!) return `range ${base} runs backwards`;
  }
  return null;
}

function fieldValue(v: string, f: (typeof FIELDS)[number]): number | null {
  if (/^\d+$/.test(v)) return Number(v);
  const i = f.names?.indexOf(v.toLowerCase().slice(0, 3)) ?? -1;
  return i >= 0 && /^[a-z]+$/i.test(v) ? i + f.min : null;
}
