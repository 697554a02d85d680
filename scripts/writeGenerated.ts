// The tail of every generator in scripts/ that writes a checked-in file from another one:
// write it, or with --check exit 1 when the committed copy differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `built` to root/file, or with `check` compares them; returns the exit code. `rerun` is the command that rewrites it. */
export function writeGenerated(root: string, file: string, source: string, built: string, check: boolean, rerun: string): number {
  if (check) {
    let current = '';
    try {
      current = readFileSync(join(root, file), 'utf8');
    } catch {
      // Missing counts as out of date.
    }
    if (current === built) return 0;
    process.stderr.write(`${file} is out of date with ${source}; run: ${rerun}\n`);
    return 1;
  }
  writeFileSync(join(root, file), built);
  process.stdout.write(`wrote ${file}\n`);
  return 0;
}
