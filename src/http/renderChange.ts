import { displayedServer, displayedVersion, type Fingerprint, IDENTITY_FIELDS } from '../fingerprint/normalizeFingerprint.js';
import type { Comparison, PeriodSummary } from '../fingerprint/changeComparison.js';
import { formatAge } from './formatAge.js';
import { escapeHtml as esc } from './htmlPage.js';

/** "−61%", "+5%": how much a figure moved, with a real minus sign; null when either side lacks it or the before is 0. */
export function percentChange(before: number | null, after: number | null): string | null {
  if (before === null || after === null || before === 0) return null;
  const p = Math.round(((after - before) / before) * 100);
  return p === 0 ? '±0%' : p > 0 ? `+${p}%` : `−${-p}%`;
}

const share = (n: number, of: number) => `${n} of ${of}`;
const loops = (s: PeriodSummary) => Math.round(s.loopRatio * s.samples);

/**
 * The comparison in one line for people: "since the change 2 h ago (version 1 → 2): 3 of 4
 * samples failed, before 0 of 12; ITL −61%; TTFT +4%". Plain text; the caller escapes it.
 */
export function describeComparison(c: Comparison, nowMs: number): string {
  const { before: b, after: a } = c;
  const age = formatAge((nowMs - c.changedAtMs) / 1000);
  const head = `since the change ${age}${c.what ? ` (${c.what})` : ''}`;
  if (a.samples === 0) return `${head}: no sample yet; before, ${share(b.failed, b.samples)} samples failed`;
  const parts = [`${share(a.failed, a.samples)} samples failed, before ${share(b.failed, b.samples)}`];
  if (loops(a) > 0 || loops(b) > 0) parts.push(`loops or stutter in ${share(loops(a), a.samples)}, before ${share(loops(b), b.samples)}`);
  if (a.onsetTokens !== null)
    parts.push(`loops start at token ${Math.round(a.onsetTokens)}${b.onsetTokens !== null ? `, before ${Math.round(b.onsetTokens)}` : ''}`);
  if (a.recallRatio !== null && b.recallRatio !== null)
    parts.push(`recall ${a.recallRatio.toFixed(2)}, before ${b.recallRatio.toFixed(2)}`);
  if (a.conformanceFailedRatio !== null && b.conformanceFailedRatio !== null)
    parts.push(`checks failed ${Math.round(a.conformanceFailedRatio * 100)}%, before ${Math.round(b.conformanceFailedRatio * 100)}%`);
  const itl = percentChange(b.itlSeconds, a.itlSeconds);
  if (itl) parts.push(`ITL ${itl}`);
  const ttft = percentChange(b.ttftSeconds, a.ttftSeconds);
  if (ttft) parts.push(`TTFT ${ttft}`);
  if (a.errored > 0) parts.push(`${a.errored} errored`);
  return `${head}: ${parts.join('; ')}`;
}

/** Whether the after side is worse: more failed samples or more loops (what the page marks). */
export function looksWorse(c: Comparison): boolean {
  return c.after.samples > 0 && (c.after.failedRatio > c.before.failedRatio || c.after.loopRatio > c.before.loopRatio);
}

/** The comparison as a paragraph of a page. */
export function comparisonHtml(c: Comparison, nowMs: number): string {
  return `<p class="change${looksWorse(c) ? ' worse' : ''}">${esc(describeComparison(c, nowMs))}</p>`;
}

/** The run's fingerprint as a table: what the target said, what could not be read. */
export function fingerprintHtml(fp: Fingerprint): string {
  const rows: [string, string][] = [
    ['hash', fp.hash],
    ['server', displayedServer(fp) ?? '–'],
    ['version', displayedVersion(fp) ?? '–'],
    ['model', fp.model ?? '–'],
    ['model revision', fp.modelRevision ?? '–'],
    ['system_fingerprint', fp.systemFingerprint ?? '–'],
    ['max model length', fp.maxModelLen === null ? '–' : String(fp.maxModelLen)],
    ['owned by', fp.ownedBy ?? '–'],
    ...Object.entries(fp.settings).map(([k, v]) => [k, v] as [string, string]),
    ...Object.entries(fp.headers).map(([k, v]) => [`header ${k}`, v] as [string, string]),
    ['read from', fp.sources.join(', ') || '–'],
  ];
  if (fp.unavailable.length > 0) rows.push(['unavailable', fp.unavailable.join('; ')]);
  // Folded when the target said nothing about itself: a table of dashes is not worth a screen.
  const empty = fingerprintEmpty(fp);
  return `<details class="fingerprint"${empty ? '' : ' open'}><summary><h2>Target fingerprint</h2>${
    empty ? ' <span class="muted">(the target said nothing about itself)</span>' : ''
  }</summary><table class="figures fingerprint">${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table></details>`;
}

/** No identity field, setting or header was read. */
export function fingerprintEmpty(fp: Fingerprint): boolean {
  return IDENTITY_FIELDS.every((f) => fp[f] === null) && Object.keys(fp.settings).length === 0 && Object.keys(fp.headers).length === 0;
}
