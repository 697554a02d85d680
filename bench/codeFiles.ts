/**
 * npm run bench -- code: false alarms on source code written by people (test/corpus/codeFiles.ts), each file read
 * whole and cut at 3,000 chars (what a probe of about a thousand tokens sees), and each streamed through the abort
 * check as the daemon runs it.
 */
import { analyzeText } from '../src/core/analyzeText.js';
import { firstCertain } from './firstCertain.js';
import { CODE_MAX_BYTES, CODE_MIN_BYTES, CODE_SOURCES, codeFiles } from '../test/corpus/codeFiles.js';

/** The cut read besides the whole file. */
const CUT = 3000;
/** Chars of each file streamed through the abort check, in deltas of STREAM_DELTA. */
const STREAM_CHARS = 20_000;
const STREAM_DELTA = 160;

export async function runCodeFilesBench(): Promise<void> {
  const files = codeFiles();
  if (files.length === 0) {
    console.log(`  no code files found (${CODE_SOURCES.flatMap((s) => s.roots).join(', ')})`);
    return;
  }
  console.log(
    `healthy source code written by people: distinct files of ${CODE_MIN_BYTES} B to ${CODE_MAX_BYTES / 1024} KB, whole and cut at ${CUT} chars`,
  );
  const examples: string[] = [];
  for (const s of CODE_SOURCES) {
    const mine = files.filter((f) => f.source === s.name);
    if (mine.length === 0) continue;
    let readings = 0;
    let fail = 0;
    let warn = 0;
    let filesFailed = 0;
    const kinds = new Map<string, number>();
    for (const f of mine) {
      let failed = false;
      for (const [cut, text] of [['whole', f.text] as const, ['cut', f.text.slice(0, CUT)] as const]) {
        if (cut === 'cut' && f.text.length <= CUT) continue;
        readings++;
        const a = analyzeText(text);
        if (a.verdict === 'warn') warn++;
        if (a.verdict !== 'fail') continue;
        fail++;
        failed = true;
        const kind = (a.reasons[0] ?? '').split(':')[0]!;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (examples.length < 12) examples.push(`${f.path} (${cut}): ${(a.reasons[0] ?? '').slice(0, 110)}`);
      }
      if (failed) filesFailed++;
    }
    const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(2)}%`;
    const k = [...kinds].sort((x, y) => y[1] - x[1]).map(([kind, n]) => `${kind} ${n}`);
    console.log(
      `  ${s.name.padEnd(9)} ${String(mine.length).padStart(5)} files, ${String(readings).padStart(5)} readings  fail ${pct(fail, readings)} (${fail}; ${filesFailed} files)  warn ${pct(warn, readings)} (${warn})${k.length > 0 ? `  first kinds: ${k.join(', ')}` : ''}`,
    );
  }
  if (examples.length > 0) console.log('  first fails:');
  for (const e of examples) console.log(`    ${e}`);
  reportAborts(files);
}

/** The files the abort check would close as certainly collapsed at some point of their stream (a healthy text never should be). */
function reportAborts(files: ReturnType<typeof codeFiles>): void {
  const aborted: string[] = [];
  for (const f of files) {
    const hit = firstCertain(f.text.slice(0, STREAM_CHARS), STREAM_DELTA);
    if (hit) aborted.push(`${f.path} at char ${hit.at}: ${hit.finding.kind}: ${hit.finding.detail.slice(0, 90)}`);
  }
  console.log(
    `  streamed (first ${STREAM_CHARS.toLocaleString('en-US')} chars, ${STREAM_DELTA}-char deltas): ${aborted.length} of ${files.length} files would be aborted as certainly collapsed`,
  );
  for (const a of aborted.slice(0, 8)) console.log(`    ${a}`);
}
