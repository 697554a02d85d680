/**
 * Source code written by people, found on the machine, as a model may answer with it unfenced: the C and C++ headers
 * of /usr/include, the Python modules, the Perl modules. Each distinct file (by content) of 200 B to 400 KB, in
 * another encoding than UTF-8 or holding a NUL left out. Read by `npm run bench -- code` and gated by
 * test/core/codeFiles.test.ts. The files the realworld bench reads (node_modules, /usr/share/doc) are not here: the
 * learned verdict is fitted on those.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where each kind of code is looked for, and the ending its files have. */
export const CODE_SOURCES: ReadonlyArray<{ name: string; roots: string[]; ending: string }> = [
  { name: 'c-headers', roots: ['/usr/include'], ending: '.h' },
  { name: 'python', roots: ['/usr/lib/python3.11', '/usr/lib/python3'], ending: '.py' },
  { name: 'perl', roots: ['/usr/share/perl', '/usr/share/perl5'], ending: '.pm' },
];
export const CODE_MIN_BYTES = 200;
export const CODE_MAX_BYTES = 400 * 1024;
export interface CodeFile {
  source: string;
  path: string;
  text: string;
}

/** Files under `dir` whose names end in `ending`, symbolic links not followed, in sorted order. */
function walk(dir: string, ending: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) continue;
    if (st.isDirectory()) walk(path, ending, out);
    else if (st.isFile() && name.endsWith(ending) && st.size >= CODE_MIN_BYTES && st.size <= CODE_MAX_BYTES) out.push(path);
  }
}

/** Every distinct code file of the sources found on this machine (none where they are not installed). */
export function codeFiles(): CodeFile[] {
  const seen = new Set<string>();
  const out: CodeFile[] = [];
  for (const s of CODE_SOURCES) {
    const paths: string[] = [];
    for (const root of s.roots) walk(root, s.ending, paths);
    for (const path of paths) {
      const bytes = readFileSync(path);
      const hash = createHash('sha1').update(bytes).digest('hex');
      if (seen.has(hash) || bytes.includes(0)) continue;
      seen.add(hash);
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      // a file in another encoding decodes with replacement chars: not what a model writes
      if (text.includes('\uFFFD')) continue;
      out.push({ source: s.name, path, text });
    }
  }
  return out;
}
