/**
 * Prompt adherence: does the answer talk about what was asked? A model that answers another
 * prompt (context bled from another request, a corrupted KV cache) writes fluent text that
 * passes every repetition check; the share of the prompt's expected keywords it mentions does not.
 * Pure: text in, figures out.
 */
import { type AnswerLanguage, answerLanguage, wrongLanguage } from './answerLanguage.js';
import { languageName } from './detectors/languageId/languageName.js';

/** What a probe expects of its answer (probes[].expect). */
export interface ExpectConfig {
  /** Words or short phrases the answer should mention; matched stemmed and case-insensitive. */
  keywords: string[];
  /** Share of keywords (0-1) under which the sample fails with off_prompt. */
  minCoverage: number;
  /** At least this many markdown headings (0 = not checked); fewer is a warn (missing_headings). */
  headings: number;
  /** The language the answer must be in (ISO 639-1), else the sample fails wrong_language; null: not checked. */
  language?: string | null;
}

export interface Adherence {
  /** Share of the expected keywords the answer mentions, 0-1 (null when no keywords were expected). */
  coverage: number | null;
  matched: string[];
  missing: string[];
  /** Markdown headings (ATX, "# Title" to "###### Title") in the answer. */
  headings: number;
  /** The answer's language when expect.language is set (answerLanguage.ts); null otherwise. */
  language: AnswerLanguage | null;
}

const WORD_RE = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
// One suffix is stripped, longest first; what is left must keep at least MIN_STEM characters.
const SUFFIXES = ['ations', 'ation', 'ating', 'ated', 'ate', 'ness', 'ment', 'ing', 'ers', 'er', 'ed', 'ly'];
const MIN_STEM = 3;

/**
 * A small suffix-stripping stemmer (English), enough to make "databases", "database" and
 * "Database's", or "replicated" and "replication", one word. Not Porter: it only has to map a
 * keyword and the forms an answer uses to the same string, and errs towards leaving words alone.
 */
export function stem(word: string): string {
  let w = word
    .toLowerCase()
    .replace(/['’]s$/, '')
    .replace(/['’]/g, '');
  if (w.length <= MIN_STEM) return w;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= MIN_STEM) {
      w = w.slice(0, -suffix.length);
      // running -> runn -> run; but keep "ll", "ss", "zz" (installed -> install)
      if ((suffix === 'ing' || suffix === 'ed' || suffix === 'er') && /([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.length > MIN_STEM && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > MIN_STEM && w.endsWith('y')) w = `${w.slice(0, -1)}i`;
  return w;
}

/** The stemmed words of a text, in order. */
export function stemmedWords(text: string): string[] {
  return (text.match(WORD_RE) ?? []).map(stem);
}

/** ATX markdown headings: a line starting with 1-6 '#' and a space (up to 3 spaces of indent). */
export function countHeadings(text: string): number {
  return (text.match(/^ {0,3}#{1,6}[ \t]+\S/gm) ?? []).length;
}

/**
 * Which keywords the text mentions: a keyword (one word or a phrase) matches when its stemmed
 * words occur in the text's stemmed words, consecutively.
 */
export function keywordCoverage(text: string, keywords: readonly string[]): Pick<Adherence, 'coverage' | 'matched' | 'missing'> {
  if (keywords.length === 0) return { coverage: null, matched: [], missing: [] };
  const haystack = ` ${stemmedWords(text).join(' ')} `;
  const matched: string[] = [];
  const missing: string[] = [];
  for (const k of keywords) {
    const needle = stemmedWords(k).join(' ');
    (needle !== '' && haystack.includes(` ${needle} `) ? matched : missing).push(k);
  }
  return { coverage: matched.length / keywords.length, matched, missing };
}

export function measureAdherence(text: string, expect: ExpectConfig): Adherence {
  return {
    ...keywordCoverage(text, expect.keywords),
    headings: countHeadings(text),
    language: expect.language ? answerLanguage(text) : null,
  };
}

/** What a sample's verdict takes from its adherence: findings with a kind, a severity and a detail. */
export interface AdherenceFinding {
  kind: 'off_prompt' | 'missing_headings' | 'wrong_language';
  severity: 'warn' | 'fail';
  detail: string;
}

/**
 * off_prompt (fail) under minCoverage: the model answered something else. missing_headings
 * (warn): the article came without the structure asked for, which says less (a model may
 * answer well in plain paragraphs), so it never fails a sample alone.
 */
export function adherenceFindings(a: Adherence, expect: ExpectConfig): AdherenceFinding[] {
  const out: AdherenceFinding[] = [];
  if (a.coverage !== null && a.coverage < expect.minCoverage) {
    const shown = a.missing
      .slice(0, 8)
      .map((k) => JSON.stringify(k))
      .join(', ');
    out.push({
      kind: 'off_prompt',
      severity: 'fail',
      detail: `the answer mentions ${a.matched.length} of ${a.matched.length + a.missing.length} expected keywords (${pct(a.coverage)}, under minCoverage ${pct(expect.minCoverage)}); missing ${shown}${a.missing.length > 8 ? ', ...' : ''}: it answers another prompt`,
    });
  }
  const wrong = a.language && expect.language ? wrongLanguage(a.language, expect.language) : null;
  if (wrong && expect.language) {
    out.push({
      kind: 'wrong_language',
      severity: 'fail',
      detail: `the answer is in ${languageName(wrong.language)}, ${pct(wrong.share)} of it in ${languageName(expect.language)} (expect.language ${expect.language})`,
    });
  }
  if (expect.headings > 0 && a.headings < expect.headings) {
    out.push({
      kind: 'missing_headings',
      severity: 'warn',
      detail: `${a.headings} markdown headings, fewer than the ${expect.headings} expected`,
    });
  }
  return out;
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;
