import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { analyzeText, isCertainFail } from '../src/core/analyzeText.js';
import { firstCertain } from './firstCertain.js';

/**
 * False alarms on real, healthy, human-written files found on this machine (never copied
 * into the repo): the project's node_modules (source code, type declarations, READMEs, tests)
 * and Debian's /usr/share/doc. None of them is degenerate, so every fail is a false alarm.
 * The figure depends on what is installed; the corpus test is the stable gate.
 */
const ROOTS = [new URL('../../node_modules', import.meta.url).pathname, '/usr/share/doc'];
const KINDS = new Set(['.md', '.ts', '.js', '.json', '.txt', '.yaml', '.yml', '.html', '.css']);

function collect(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    // node_modules/.cache holds what tools write while they run (the analyzer bench's bundles): not installed files,
    // and read while a bench runs they would change the set under the training (npm run train -- --check)
    if (st.isDirectory()) {
      if (name !== '.cache') collect(path, out);
    }
    // 3–200 KB: the size of a probe's output; minified bundles and source maps are not prose or code a model writes,
    // nor are a tool's hidden files (npm's node_modules/.package-lock.json names this package's version: it changed
    // with every release, and with it the training set, so the committed model no longer matched a fresh npm ci).
    else if (KINDS.has(extname(name)) && !name.startsWith('.') && st.size > 3000 && st.size < 200_000 && !/\.min\.|\.map$/.test(name))
      out.push(path);
  }
}

/**
 * The real files the bench reads: path, a short name, and the text (files that are not UTF-8 are left out).
 * `roots` lets a script run from source (tsx, where this module's URL is not under dist/) name the folders.
 */
export function realWorldFiles(roots: readonly string[] = ROOTS): Array<{ path: string; name: string; text: string }> {
  const files: string[] = [];
  for (const root of roots) collect(root, files);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: Array<{ path: string; name: string; text: string }> = [];
  for (const path of files) {
    try {
      out.push({ path, name: path.replace(/^.*node_modules\//, 'node_modules/'), text: decoder.decode(readFileSync(path)) });
    } catch {
      // not UTF-8: not a text a model writes
    }
  }
  return out;
}

export async function runRealWorldBench(): Promise<void> {
  const files: string[] = [];
  for (const root of ROOTS) collect(root, files);
  const byKind = new Map<string, { n: number; fail: number; warn: number }>();
  const examples: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let unknownFail = 0;
  let unknownWarn = 0;
  for (const file of files) {
    let text: string;
    try {
      text = decoder.decode(readFileSync(file));
    } catch {
      continue;
    }
    // A file is a complete text that ended by itself, as a healthy answer ends with
    // finish_reason stop; the figure without that evidence is reported beside it.
    const a = analyzeText(text, { finishReason: 'stop' });
    const u = analyzeText(text);
    if (u.verdict === 'fail') unknownFail++;
    else if (u.verdict === 'warn') unknownWarn++;
    const kind = extname(file);
    const row = byKind.get(kind) ?? { n: 0, fail: 0, warn: 0 };
    byKind.set(kind, row);
    row.n++;
    if (a.verdict === 'fail') {
      row.fail++;
      if (examples.length < 12) examples.push(`    ${file.replace(/^.*node_modules\//, 'node_modules/')}: ${a.reasons[0]?.slice(0, 110)}`);
    } else if (a.verdict === 'warn') row.warn++;
  }
  const pct = (x: number, n: number) => `${((100 * x) / Math.max(1, n)).toFixed(1)}%`;
  let n = 0;
  let fail = 0;
  let warn = 0;
  console.log(
    'false alarms on real healthy files of this machine (node_modules, /usr/share/doc), 3–200 KB each, judged as complete texts (finish_reason stop):',
  );
  for (const [kind, row] of [...byKind].sort((a, b) => b[1].n - a[1].n)) {
    console.log(
      `  ${kind.padEnd(6)} ${String(row.n).padStart(5)} files  fail ${pct(row.fail, row.n).padStart(6)}  warn ${pct(row.warn, row.n).padStart(6)}`,
    );
    n += row.n;
    fail += row.fail;
    warn += row.warn;
  }
  console.log(`  all    ${String(n).padStart(5)} files  fail ${pct(fail, n).padStart(6)}  warn ${pct(warn, n).padStart(6)}`);
  console.log(`  the same files with no finish_reason given: fail ${pct(unknownFail, n)}  warn ${pct(unknownWarn, n)}`);
  if (examples.length) console.log(`  some of the false fails:\n${examples.join('\n')}`);
  reportFalseAborts(files, decoder);
}

/**
 * The daemon closes a stream on the first certain fail, so a healthy text that is ever
 * certain mid-stream would be cut and failed. Streams a third of the files (up to 60 KB)
 * in 160-char deltas, looking at the analysis after each, as the daemon does every 32 tokens.
 */
function reportFalseAborts(files: string[], decoder: { decode(bytes: Uint8Array): string }): void {
  let n = 0;
  let aborted = 0;
  const examples: string[] = [];
  for (const file of files.filter((_, i) => i % 3 === 0)) {
    let text: string;
    try {
      if (statSync(file).size > 60_000) continue;
      text = decoder.decode(readFileSync(file));
    } catch {
      continue;
    }
    n++;
    // the abort check, as the daemon runs it, then the full snapshot at a look it closes (it costs the text's length)
    let reason = '';
    const hit = firstCertain(text, 160, (live) => {
      const snap = live.snapshot();
      reason = snap.reasons[0] ?? '';
      return isCertainFail(snap);
    });
    if (!hit) continue;
    aborted++;
    if (examples.length < 5)
      examples.push(
        `    ${file.replace(/^.*node_modules\//, 'node_modules/')} at char ${hit.at} of ${text.length}: ${reason.slice(0, 90)}`,
      );
  }
  console.log(
    `  streamed mid-way (${n} files, 160-char deltas): ${aborted} would be aborted as certainly collapsed (${((100 * aborted) / Math.max(1, n)).toFixed(1)}%)`,
  );
  if (examples.length) console.log(examples.join('\n'));
}
