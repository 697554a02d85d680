/**
 * Variants of the collapse families of issue 36, built from healthy texts with a seeded random
 * source, and the healthy shapes each family must not be confused with. The unit tests hold one
 * written text per shape; this builds many of each, with the parameters drawn (wrap widths, copy
 * counts, unit sizes, what comes before the collapse, numbering styles), so a rule that only fits
 * its one written row shows here as a low figure. `npm run bench -- families` prints the figures.
 *
 * The sentences, paragraphs and prefixes come from the texts given: the bench gives the healthy
 * texts of the real development corpora (tuning) and test/corpus's holdout and fresh texts (a
 * second set, never looked at while a rule was set).
 */
import { identifyLanguage } from '../../src/core/detectors/languageId/eldLoader.js';
import { createRng, hashSeed, type Rng } from '../../src/prose/random.js';

export interface FamilySample {
  family: string;
  degenerate: boolean;
  text: string;
}

interface Material {
  r: Rng;
  /** English texts of prose, no fenced code and little code punctuation (one language: mixing their sentences is no language switch). */
  prose: string[];
  /** Sentences of those texts, 40-220 chars, no markup. */
  sentences: string[];
}

const NOUNS = [
  'river',
  'lamp',
  'garden',
  'window',
  'teacher',
  'bottle',
  'mountain',
  'letter',
  'engine',
  'mirror',
  'candle',
  'forest',
  'harbor',
  'ladder',
  'pocket',
  'violin',
  'wallet',
  'bridge',
  'carpet',
  'meadow',
];
/** Different nouns for a healthy list of one word a line. */
const WORD_LIST = [
  ...NOUNS,
  ...[
    'apple',
    'anchor',
    'basket',
    'beacon',
    'cabin',
    'canyon',
    'dragon',
    'falcon',
    'glacier',
    'hammer',
    'island',
    'jacket',
    'kettle',
    'lantern',
    'magnet',
    'needle',
    'orchard',
    'parrot',
    'quartz',
    'rocket',
    'saddle',
    'tunnel',
    'umbrella',
    'valley',
    'walnut',
    'yogurt',
    'zipper',
    'anvil',
    'barrel',
    'cactus',
    'desert',
    'engineer',
    'feather',
    'guitar',
    'helmet',
    'igloo',
    'jungle',
    'kayak',
    'lemon',
    'marble',
  ],
];
const ADJECTIVES = ['quiet', 'bright', 'old', 'small', 'green', 'heavy', 'gentle', 'broken', 'warm', 'narrow'];
const MARKS = ['#', '!', '\u2047', '*', '=', '-', '?'];
const CJK_OPENINGS = [
  '你好！我是一个人工智能助手，由一家科技公司开发。',
  '您好，我是智能客服小助手，很高兴为您服务。',
  '大家好，我是一名语言模型，可以回答各种问题。',
];
const CJK_SENTENCES = ['我可以帮助你。', '有什么问题吗？', '请随时告诉我。', '我会尽力回答。', '希望对你有用。'];

const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function isEnglishProse(t: string): boolean {
  const letters = t.match(/\p{L}/gu) ?? [];
  if (letters.length < 800 || t.includes('```')) return false;
  // prose, not code or markup: code punctuation under one in two hundred chars
  if ((t.match(/[{}[\];=<>|\\`]/g) ?? []).length > t.length / 200) return false;
  return letters.filter((c) => /[a-z]/i.test(c)).length / letters.length > 0.95 && identifyLanguage(t.slice(0, 1000)).language === 'en';
}

function sentencesOf(t: string): string[] {
  return t
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 40 && s.length <= 220 && /^[A-Z]/.test(s) && !/[|#*`<>]/.test(s));
}

/** Words of `s` in lines of at most `width` chars (a longer word stands alone). */
export function wrap(s: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** `s` cut at the last space before char n (at n when that space is in the first half). */
function cutAtWord(s: string, n: number): string {
  const i = s.lastIndexOf(' ', n);
  return s.slice(0, i > n / 2 ? i : n);
}

/** What an answer said before it collapsed: nothing, or the opening paragraphs of a healthy text. */
function prefix(m: Material): string {
  const t = pick(m.r, m.prose);
  const n = int(m.r, 0, 2500);
  if (n < 200) return '';
  const i = t.indexOf('\n\n', n);
  return `${i > 0 ? t.slice(0, i) : t.slice(0, n)}\n\n`;
}

/** A text of at least `chars` chars: a healthy text, followed by others while it is shorter. */
function longText(m: Material, chars: number): string {
  let t = pick(m.r, m.prose);
  while (t.length < chars) t += `\n\n${pick(m.r, m.prose)}`;
  return t;
}

/** `n` different items of `xs`. */
function distinctOf<T>(m: Material, xs: readonly T[], n: number): T[] {
  const deck = [...xs];
  for (let i = 0; i < n; i++) {
    const j = int(m.r, i, deck.length - 1);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck.slice(0, n);
}

/** `n` different sentences (a healthy list says each thing once). */
function distinct(m: Material, n: number): string[] {
  return distinctOf(m, m.sentences, n);
}

function twoSentences(m: Material): string {
  const i = int(m.r, 0, m.sentences.length - 2);
  return `${m.sentences[i]} ${m.sentences[i + 1]}`;
}

const DEGENERATE: Record<string, (m: Material) => string> = {
  /** Two sentences said 1.8-3 times in one run, hard-wrapped at one width: the breaks fall elsewhere in each copy. */
  wrapped_copies: (m) => {
    const unit = twoSentences(m);
    const total = Math.round(unit.length * (1.8 + m.r() * 1.2));
    let s = unit;
    while (s.length < total) s += ` ${unit}`;
    return `${prefix(m)}${wrap(cutAtWord(s, total), int(m.r, 50, 100))}\n`;
  },
  /** Two or three copies of two sentences, each wrapped at its own width, sometimes a cut copy after them. */
  rewrapped_copies: (m) => {
    const unit = twoSentences(m);
    const copies = Array.from({ length: int(m.r, 2, 3) }, () => wrap(unit, int(m.r, 50, 100)));
    if (m.r() < 0.5) copies.push(wrap(cutAtWord(unit, Math.floor(unit.length * (0.3 + m.r() * 0.5))), int(m.r, 50, 100)));
    return `${prefix(m)}${copies.join(pick(m.r, ['\n', '\n\n', ' ']))}\n`;
  },
  /** A block of 700-1,500 chars said again and cut at 50-90%. */
  block_copy: (m) => {
    const t = longText(m, 2000);
    const block = cutAtWord(t.slice(int(m.r, 0, t.length - 1600)), int(m.r, 700, 1500));
    return `${prefix(m)}${block}\n\n${cutAtWord(block, Math.floor(block.length * (0.5 + m.r() * 0.4)))}`;
  },
  /** Two or three items alternating while their counters rise, 20-50 items. */
  rising_counters: (m) => {
    const items = Array.from({ length: int(m.r, 2, 3) }, () => pick(m.r, m.sentences));
    const style = pick(m.r, [
      (n: number) => `${n}. `,
      (n: number) => `Step ${n}: `,
      (n: number) => `${n}) `,
      (n: number) => `- Item ${n}: `,
    ]);
    const lines = Array.from({ length: int(m.r, 20, 50) }, (_, j) => style(j + 1) + items[j % items.length]);
    return `${pick(m.r, m.sentences)}\n\n${lines.join('\n')}\n`;
  },
  /** A few short lines of marks and unknown-token glyphs, no letter. */
  short_marks: (m) =>
    Array.from({ length: int(m.r, 3, 8) }, () => Array.from({ length: int(m.r, 3, 15) }, () => pick(m.r, MARKS)).join('')).join('\n'),
  /** An opening brace, then blank lines. */
  short_brace: (m) => `{${'\n'.repeat(int(m.r, 3, 30))}${m.r() < 0.5 ? '' : ' '.repeat(int(m.r, 1, 8))}`,
  /** The start of a sentence (10-40 chars) said 2.3-3.8 times, cut mid-word. */
  short_unit: (m) => {
    const u = pick(m.r, m.sentences).slice(0, int(m.r, 10, 40));
    return u.repeat(4).slice(0, Math.floor(u.length * (2.3 + m.r() * 1.5)));
  },
  /** A long answer whose last 30-45% replays its earlier sentences with one word changed in each. */
  replay_edits: (m) => {
    const t = longText(m, 6000);
    const body = t.slice(0, int(m.r, 5000, Math.min(t.length, 14_000)));
    // each sentence with the whitespace after it, so the replay keeps the lines and paragraphs of what it replays
    const parts = body.split(/(?<=[.!?])(\s+)/);
    const want = Math.floor(body.length * (0.4 + m.r() * 0.4));
    let out = '';
    for (let j = 2 * int(m.r, 0, Math.floor(parts.length / 6)); out.length < want && j < parts.length; j += 2) {
      const words = parts[j]!.split(' ');
      if (words.length > 3) words[int(m.r, 1, words.length - 1)] = pick(m.r, NOUNS);
      out += words.join(' ') + (parts[j + 1] ?? ' ');
    }
    return `${body}\n\n${out}`;
  },
  /** 100-300 lines of one short template with a new noun each. */
  template_list: (m) => {
    const line = pick(m.r, [
      () => `A ${pick(m.r, NOUNS)}.`,
      () => `The ${pick(m.r, ADJECTIVES)} ${pick(m.r, NOUNS)}.`,
      () => `- A ${pick(m.r, ADJECTIVES)} ${pick(m.r, NOUNS)}`,
    ]);
    return `${pick(m.r, m.sentences)}\n\n${Array.from({ length: int(m.r, 100, 300) }, line).join('\n')}`;
  },
  /** Lines of marks only, no unknown-token glyph: `#`, `!`, `*`, `=`, `-`. */
  short_ascii_marks: (m) =>
    Array.from({ length: int(m.r, 3, 8) }, () =>
      Array.from({ length: int(m.r, 3, 15) }, () =>
        pick(
          m.r,
          MARKS.filter((c) => c !== '\u2047'),
        ),
      ).join(''),
    ).join('\n'),
  /** Lines of digits and asterisks with two stray words among them. */
  short_digits: (m) => {
    const lines = Array.from({ length: int(m.r, 4, 10) }, () =>
      Array.from({ length: int(m.r, 2, 5) }, () => (m.r() < 0.5 ? String(int(m.r, 0, 99_999)) : '*'.repeat(int(m.r, 1, 6)))).join(' '),
    );
    for (let k = 0; k < 2; k++) lines[int(m.r, 0, lines.length - 1)] += ` ${pick(m.r, NOUNS)}`;
    return lines.join('\n');
  },
  /** A Chinese self-introduction whose last short sentence is said three times more. */
  short_cjk_unit: (m) => {
    const last = pick(m.r, CJK_SENTENCES);
    return `${pick(m.r, CJK_OPENINGS)}${last.repeat(int(m.r, 3, 4))}`;
  },
  /** A JSON list of keywords that share a prefix and keep growing. */
  short_growing_keys: (m) => {
    const base = pick(m.r, NOUNS);
    let key = base;
    const keys: string[] = [];
    for (let k = int(m.r, 6, 14); k > 0; k--) {
      keys.push(key);
      key += `_${pick(m.r, NOUNS)}`;
    }
    return `{"keywords": [${keys.map((k) => `"${k}"`).join(', ')}`;
  },
  /** Half a sentence, then lines of letter-digit codes. */
  short_codes: (m) => {
    const s = pick(m.r, m.sentences);
    const code = () =>
      Array.from({ length: int(m.r, 4, 8) }, () => (m.r() < 0.5 ? String.fromCharCode(65 + int(m.r, 0, 25)) : String(int(m.r, 0, 9)))).join(
        '',
      );
    return `${s.slice(0, Math.floor(s.length / 2))}\n${Array.from({ length: int(m.r, 4, 10) }, code).join('\n')}`;
  },
  /** After an opening, 60-300 pieces of 2-5 letters cut from its words (word-piece salad). */
  subword_salad: (m) => {
    const words = m.sentences
      .join(' ')
      .split(' ')
      .filter((w) => /^[a-z]{5,}$/.test(w));
    const piece = () => {
      const w = pick(m.r, words);
      const at = int(m.r, 0, w.length - 2);
      return w.slice(at, at + int(m.r, 2, 5));
    };
    return `${prefix(m)}${pick(m.r, m.sentences)} ${Array.from({ length: int(m.r, 60, 300) }, piece).join(m.r() < 0.5 ? ' ' : '')}`;
  },
  /** After an opening, sentences whose every word has a piece of another glued to it. */
  glued_pieces: (m) => {
    const words = m.sentences
      .join(' ')
      .split(' ')
      .filter((w) => /^[a-z]{5,}$/.test(w));
    const glue = (w: string) => `${w}${pick(m.r, words).slice(int(m.r, 1, 3), int(m.r, 4, 7))}`;
    const out = Array.from({ length: int(m.r, 4, 10) }, () => pick(m.r, m.sentences).split(' ').map(glue).join(' '));
    return `${prefix(m)}${out.join(' ')}`;
  },
  /** After an opening, sentences spelt letter by letter with spaces between. */
  spaced_letters: (m) =>
    `${prefix(m)}${Array.from({ length: int(m.r, 2, 6) }, () => pick(m.r, m.sentences).split('').join(' ')).join('  ')}`,
  /** After an opening, 40-200 lines of one word each, drawn from the text's words. */
  one_word_lines: (m) => {
    const words = m.sentences
      .join(' ')
      .split(' ')
      .filter((w) => /^[a-z]{3,}$/.test(w));
    return `${prefix(m)}${Array.from({ length: int(m.r, 40, 200) }, () => pick(m.r, words)).join('\n')}`;
  },
  /** The same two sentences said 3-5 times, a list in the second growing by an item each time. */
  restated_growing: (m) => {
    const [first, second] = distinct(m, 2);
    const items = distinctOf(m, WORD_LIST, 8);
    const copies = Array.from(
      { length: int(m.r, 3, 5) },
      (_, k) => `${first} ${second!.replace(/[.!?]$/, '')}, with ${items.slice(0, 2 + k).join(', ')}.`,
    );
    return `${prefix(m)}${copies.join('\n\n')}`;
  },
  /**
   * An answer, then 1-4 turns of its instruction template written by the model itself: a new
   * instruction and its response (`### Instruction:` / `### Response:` and the like). Half the
   * draws open with the template's response header, as a model that echoes its template does.
   */
  template_turns: (m) => {
    const [instruction, response] = pick(m.r, TEMPLATE_ROLES);
    const h = pick(m.r, ['##', '###', '###']);
    const head = (role: string) => `${h} ${m.r() < 0.2 ? role.toUpperCase() : role}${m.r() < 0.2 ? ' ' : ''}:`;
    const turns = Array.from(
      { length: int(m.r, 1, 4) },
      () => `${head(instruction)}\n${pick(m.r, m.sentences)}\n\n${head(response)}\n${twoSentences(m)}`,
    );
    return `${m.r() < 0.5 ? `${head(response)}\n` : ''}${twoSentences(m)}\n\n${turns.join('\n\n')}`;
  },
};

/** Instruction and response roles of instruction templates (Alpaca, Vicuna-style and a Japanese one). */
const TEMPLATE_ROLES: Array<[string, string]> = [
  ['Instruction', 'Response'],
  ['Human', 'Assistant'],
  ['User', 'Assistant'],
  ['指示', '応答'],
];

const HEALTHY: Record<string, (m: Material) => string> = {
  /** A healthy text with its long lines hard-wrapped at 60-100 chars. */
  wrapped_prose: (m) =>
    pick(m.r, m.prose)
      .split('\n')
      .map((l) => (l.length > 100 ? wrap(l, int(m.r, 60, 100)) : l))
      .join('\n'),
  /** A numbered list of 10-40 different sentences. */
  numbered_distinct: (m) => {
    const [intro, ...items] = distinct(m, int(m.r, 11, 41));
    return `${intro}\n\n${items.map((s, j) => `${j + 1}. ${s}`).join('\n')}`;
  },
  /** A CSV table of 30-80 rows. */
  csv_table: (m) => {
    const rows = Array.from(
      { length: int(m.r, 30, 80) },
      () => `2024-0${int(m.r, 1, 9)}-${int(m.r, 10, 28)},${pick(m.r, NOUNS)},${int(m.r, 1, 500)}.${int(m.r, 10, 99)},EUR`,
    );
    return `Here is the table:\n\n${['date,item,amount,currency', ...rows].join('\n')}`;
  },
  /** A song of 3-5 verses, its two-line chorus after each, the last chorus sung twice. */
  song_refrain: (m) => {
    const verses = int(m.r, 3, 5);
    const lines = distinct(m, 2 + 4 * verses);
    const chorus = `Chorus\n${lines[0]}\n${lines[1]}`;
    const parts: string[] = [];
    for (let v = 0; v < verses; v++) parts.push(`Verse ${v + 1}\n${lines.slice(2 + 4 * v, 6 + 4 * v).join('\n')}`, chorus);
    parts.push(chorus);
    return parts.join('\n\n');
  },
  /** 20-60 numbered items in one template, each with its own sentence. */
  similar_items: (m) =>
    distinct(m, int(m.r, 20, 60))
      .map((s, j) => `${j + 1}. The ${pick(m.r, ADJECTIVES)} ${pick(m.r, NOUNS)}: ${s}`)
      .join('\n'),
  /** A short answer: the first sentence of a healthy text. */
  short_sentence: (m) => pick(m.r, m.sentences),
  /** A short JSON object of two to four keys. */
  short_json: (m) =>
    `{${distinct(m, int(m.r, 2, 4))
      .map((s, k) => `"${NOUNS[k]}": "${s.split(' ').slice(0, 3).join(' ')}"`)
      .join(', ')}}`,
  /** Three to five words, comma-separated. */
  short_words: (m) => Array.from({ length: int(m.r, 3, 5) }, () => pick(m.r, NOUNS)).join(', '),
  /** A short Chinese answer of different sentences. */
  short_cjk: (m) => `${pick(m.r, CJK_OPENINGS)}${distinctOf(m, CJK_SENTENCES, 2).join('')}`,
  /** An answer about prompt formats that shows an instruction template in a code block, then goes on. */
  template_shown: (m) => {
    const [instruction, response] = pick(m.r, TEMPLATE_ROLES);
    const block = `\`\`\`\n### ${instruction}:\n{question}\n\n### ${response}:\n{answer}\n\n### ${instruction}:\n{next question}\n\`\`\``;
    return `${twoSentences(m)}\n\n${block}\n\n${twoSentences(m)}`;
  },
  /** A list of 20-60 different nouns, one a line, after a sentence. */
  word_per_line: (m) => `${pick(m.r, m.sentences)}\n\n${distinctOf(m, WORD_LIST, int(m.r, 20, 60)).join('\n')}`,
};

export const DEGENERATE_FAMILIES = Object.keys(DEGENERATE);
export const HEALTHY_FAMILIES = Object.keys(HEALTHY);

/** `perFamily` samples of each family, built from `texts` with seed `seed` (same inputs, same samples). */
export function familySamples(texts: readonly string[], seed: number, perFamily: number): FamilySample[] {
  const prose = texts.filter(isEnglishProse);
  const m: Material = { r: createRng(seed), prose, sentences: prose.flatMap(sentencesOf) };
  if (prose.length < 5 || m.sentences.length < 50)
    throw new Error(
      `familySamples: the texts give ${prose.length} English prose texts and ${m.sentences.length} sentences; at least 5 texts and 50 sentences are needed`,
    );
  const out: FamilySample[] = [];
  // each family draws from its own seed, so a family added later changes no other family's draws
  for (const [degenerate, makers] of [
    [true, DEGENERATE],
    [false, HEALTHY],
  ] as const)
    for (const [family, make] of Object.entries(makers)) {
      m.r = createRng(hashSeed(seed, family));
      for (let i = 0; i < perFamily; i++) out.push({ family, degenerate, text: make(m) });
    }
  return out;
}
