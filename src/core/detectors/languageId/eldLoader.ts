/**
 * eld's `small` identifier, loaded the first time a text needs it. Its module evaluates 1.6 MB
 * of n-gram data (~0.35 s), which a static import would make every process that imports the
 * core pay: `--help`, a short analysis, the daemon's start. Loaded by a synchronous require of
 * the ES module (Node.js 20.19 and later), so the analyzer stays synchronous and pure.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What the detector uses of eld. */
export interface LanguageIdentifier {
  detect(text: string): { language: string; getScores(): Record<string, number> };
}

let loaded: LanguageIdentifier | null = null;

/** The identifier, loaded on first call; a clear error when this Node.js cannot require an ES module. */
export function eldDetector(): LanguageIdentifier {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  let mod: { eld: LanguageIdentifier };
  try {
    // eld exports `import` conditions only: resolve the file as an import would, then require it
    mod = require(fileURLToPath(import.meta.resolve('eld/small'))) as { eld: LanguageIdentifier };
  } catch (err) {
    throw new Error(
      `language_switch cannot load its language identifier (the eld package, 'eld/small'): ${(err as Error).message}. It needs Node.js 20.19 or later (require of an ES module) and eld installed`,
    );
  }
  loaded = mod.eld;
  return loaded;
}

/** True once the identifier is loaded (for the test that keeps the load lazy). */
export function eldLoaded(): boolean {
  return loaded !== null;
}

/** The language eld finds for a text ('' for none) and its score for it, 0-1 (its scores come ordered, the top one first). */
export function identifyLanguage(text: string): { language: string; score: number } {
  const r = eldDetector().detect(text);
  // the first key's value, read without Object.values' array of every language's score (a unit is scored often)
  const scores = r.getScores();
  for (const lang in scores) return { language: r.language, score: scores[lang]! };
  return { language: r.language, score: 0 };
}
