import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, whether a test runs from source (tsx) or compiled under dist/. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`repository root not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** A path inside the repository. */
export const repoPath = (...parts: string[]) => join(repoRoot(), ...parts);
