/**
 * The analyzer of another revision beside this one, for benches that compare them in one run:
 * its src/core is taken out of git (git archive) into a temp folder and both are bundled the
 * same way (esbuild, ES module, Node platform, the never-assigned top-level bindings made `const`
 * again as scripts/bundle.ts ships the command line), so the difference is the code, not the build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { constBindings } from '../scripts/constBindings.js';
import { repoRoot } from '../test/helpers/repoRoot.js';

/**
 * The release the current analyzer is measured against: the last one that landed before the
 * rewrite of issue 18, or the revision COHERENCY_PREVIOUS_RELEASE names (a commit or tag).
 */
export const PREVIOUS_RELEASE = process.env['COHERENCY_PREVIOUS_RELEASE'] || 'e8fc46c';

export interface AnalyzerModule {
  analyzeText(text: string, options?: { finishReason?: string | null; score?: boolean }): { verdict: string; reasons: string[] };
  createStreamAnalyzer(options?: object): {
    push(delta: string): void;
    snapshot(): { verdict: string };
    certainCollapse(): unknown;
  };
}

/** A bundled analyzer: the module, and the URL of its file (for a child process that loads it alone). */
export interface BundledAnalyzer {
  module: AnalyzerModule;
  url: string;
}

async function bundle(entry: string, dir: string, name: string): Promise<BundledAnalyzer> {
  const outfile = join(dir, `${name}.mjs`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' });
  writeFileSync(outfile, constBindings(readFileSync(outfile, 'utf8')).code);
  const url = pathToFileURL(outfile).href;
  return { module: (await import(url)) as AnalyzerModule, url };
}

/** This revision's analyzer and `rev`'s (null when git cannot give it: no history in the checkout), the URLs of their bundles and the folder that holds them. */
export async function analyzers(rev = PREVIOUS_RELEASE): Promise<{
  current: AnalyzerModule;
  previous: AnalyzerModule | null;
  urls: { current: string; previous: string | null };
  dir: string;
  cleanup(): void;
}> {
  const root = repoRoot();
  // inside the checkout, so that the bundles find node_modules: the language identifier is required on first use, not bundled
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'coherency-releases-'));
  const current = await bundle(join(root, 'src', 'core', 'analyzeText.ts'), dir, 'current');
  let previous: BundledAnalyzer | null = null;
  try {
    const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', rev, 'src/core'], { maxBuffer: 64 << 20 });
    const at = join(dir, 'previous');
    mkdirSync(at, { recursive: true });
    execFileSync('tar', ['-x', '-C', at], { input: tar });
    previous = await bundle(join(at, 'src', 'core', 'analyzeText.ts'), dir, 'previous');
  } catch (err) {
    console.log(`  (the previous release ${rev} could not be built here: ${(err as Error).message.split('\n')[0]})`);
  }
  return {
    current: current.module,
    previous: previous?.module ?? null,
    urls: { current: current.url, previous: previous?.url ?? null },
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
