import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repo root, found from this file whether it runs from source (tsx) or from dist/. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'corpus', 'healthy'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('repo root not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

export interface NamedText {
  name: string;
  text: string;
}

/** Every .txt file of test/corpus/<set>/, sorted by name. */
export function readTexts(set: 'healthy' | 'holdout' | 'fresh'): NamedText[] {
  const dir = join(repoRoot(), 'test', 'corpus', set);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => ({ name: f.replace(/\.txt$/, ''), text: readFileSync(join(dir, f), 'utf8') }));
}
