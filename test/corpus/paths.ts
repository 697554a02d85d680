import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repoRoot.js';

export { repoRoot };

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
