/**
 * Loader for the real corpus: real model outputs (degenerate and healthy) kept OUTSIDE the
 * repository, in ../shared/corpus-real/ next to the repo root (override the folder with the
 * COHERENCY_REAL_CORPUS environment variable). Its texts are never copied into the repo:
 * tests and benches read them by path. labels.tsv has one row per file:
 * `file  label  kind  source`, label 'degenerate' or 'ok'.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repoRoot.js';

export type RealLabel = 'degenerate' | 'ok';

export interface RealSample {
  /** File name, e.g. d-001.txt. */
  name: string;
  label: RealLabel;
  /** What the text shows (word-loop, gibberish, … for degenerate; prose, code, … for ok). */
  kind: string;
  /** Where the text came from (repository path or issue URL). */
  source: string;
  text: string;
}

/** The folder the corpus is read from (it may not exist). */
export function realCorpusDir(): string {
  const override = process.env['COHERENCY_REAL_CORPUS'];
  return override && override.length > 0 ? override : join(repoRoot(), '..', 'shared', 'corpus-real');
}

/**
 * The folders of both development corpora: ../shared/corpus-real and ../shared/corpus-real2
 * (override each with COHERENCY_REAL_CORPUS and COHERENCY_REAL_CORPUS2). They may not exist.
 */
export function realCorpusDirs(): string[] {
  const second = process.env['COHERENCY_REAL_CORPUS2'];
  return [realCorpusDir(), second && second.length > 0 ? second : join(repoRoot(), '..', 'shared', 'corpus-real2')];
}

/**
 * The third development corpus, ../shared/corpus-real3 (override with COHERENCY_REAL_CORPUS3):
 * real outputs of other sources, with many short healthy answers, CJK, code-heavy and data
 * answers. Gated apart from the first two (test/core/realCorpus3.test.ts): it came after the
 * rules were set, and its figures before any change for it are in docs/detection.md.
 */
export function realCorpus3Dir(): string {
  const third = process.env['COHERENCY_REAL_CORPUS3'];
  return third && third.length > 0 ? third : join(repoRoot(), '..', 'shared', 'corpus-real3');
}

/** All three development corpora: what a threshold's healthy distribution is measured on. */
export function developmentCorpusDirs(): string[] {
  return [...realCorpusDirs(), realCorpus3Dir()];
}

/**
 * Every labelled text of the real corpus, in labels.tsv order; null when the folder (or its
 * labels.tsv) is absent. Throws on a malformed row or a listed file that is missing, so a
 * broken corpus cannot pass silently as a smaller one.
 */
export function loadRealCorpus(dir: string = realCorpusDir()): RealSample[] | null {
  const labels = join(dir, 'labels.tsv');
  if (!existsSync(labels)) return null;
  const rows = readFileSync(labels, 'utf8').split(/\r?\n/);
  const samples: RealSample[] = [];
  for (const [i, row] of rows.entries()) {
    if (row.trim() === '') continue;
    const cols = row.split('\t');
    if (i === 0 && cols[0] === 'file') continue; // header
    const [name, label, kind = '', source = ''] = cols;
    if (!name || (label !== 'degenerate' && label !== 'ok')) {
      throw new Error(
        `${labels}:${i + 1}: expected "file<TAB>degenerate|ok<TAB>kind<TAB>source", got ${JSON.stringify(row.slice(0, 120))}`,
      );
    }
    const text = readFileSync(join(dir, name), 'utf8');
    samples.push({ name, label, kind, source, text });
  }
  return samples;
}
