/**
 * What belongs to the serving stack, not to the answer: template and vocabulary tokens in
 * the content (`<|im_start|>`, `<｜end▁of▁sentence｜>`, `[PAD]`, `<unk>`, `<0x0A>`,
 * `[control_12]`), space markers of a tokenizer glued into words (`▁the▁cat`, `theĠcat`),
 * and chars a decoder leaves when it breaks (U+FFFD next to a letter, the glyph ⁇ (U+2047) that
 * SentencePiece decoders write for an unknown token, C0/C1 controls, read by
 * how many fall within ODD_SPAN chars: a broken decode leaves them in every word, a long healthy
 * document may hold a stray one every few pages; form feed and vertical tab are whitespace). In
 * the content they mean the template, the detokenizer or the decode is wrong. Mentions in
 * code (fenced blocks, `inline`) do not count, nor one end-of-turn marker that ends the text
 * (a stop token left unstripped).
 *
 * A template's turns written as text count too: a user or instruction header of an instruction
 * template (`### Instruction:`, `### User:`, `### 指示:`) after a response header of one
 * (`### Response:`, `### Assistant:`, `### 応答:`), outside code. The model answered, then wrote
 * the next turn of its template itself and answers a prompt nobody sent: the stop sequence or
 * the template is wrong. Question/answer and input/output headers are left out: a healthy quiz
 * or a list of test cases is written with them.
 */
import { inStringLiteral } from '../text/stringLiteral.js';
import { F_CODE } from '../text/tokens.js';
import type { Detector, Scan, Values } from './detector.js';
import { type Finding, finding } from './finding.js';

export const SPECIAL_KINDS = ['special_tokens', 'gibberish'] as const;
export type SpecialKind = (typeof SPECIAL_KINDS)[number];

const THRESHOLDS = {
  specialTokensFail: {
    value: 3,
    why: 'template or vocabulary tokens outside code that fail. Healthy texts have at most 1 outside code (npm run bench -- thresholds); a wrong template leaks one or more per turn',
  },
  brokenTokensFail: {
    value: 1,
    why: 'pad, unk and byte-fallback tokens glued into the text (no space on either side) that fail: no working model samples a pad token, and nobody mentions one glued into a word',
  },
  newTurnsFail: {
    value: 1,
    why: 'instruction headers of an instruction template (### Instruction:, ### User:, ### Human:, ### 指示:) written after a response header of one (### Response:, ### Assistant:, ### 応答:), outside code, that fail: the model writes the next turn of its template itself. No healthy text holds one (728 healthy model outputs of the three real corpora and test/corpus, 2,276 real files); 2 of the 236 real collapses do (a Japanese model that answers, then invents new instructions and answers them)',
  },
  oddCharsFail: {
    value: 3,
    why: 'broken chars (U+FFFD next to a letter or another U+FFFD, the unknown-token glyph U+2047, controls other than whitespace) within 1,000 chars that fail. U+2047 is in no healthy text of the three real corpora, test/corpus or the 1,611 real files. No healthy model output holds one (1,089 of the three real corpora and test/corpus); of 1,616 real files of the machine 3 held 3-4 within 1,000 chars, all controls written into the string literals of test fixtures (URL, UTF-8 and terminal encoding) and of a bundle, which are no longer counted (stringLiteral.ts), so none now; the real collapses that hold them hold 3-1,000 per 1,000 chars, the synthetic broken decodes 8 or more. A count over the whole text failed 10 MB of healthy documents for 12 stray controls',
  },
} as const;

/** Special tokens of the common chat templates and vocabularies. */
const SPECIAL =
  /<\|[A-Za-z][\w.:\-\u2581]{0,47}\|>|<\uff5c[^\uff5c<>\n]{1,48}\uff5c>|<\/?(?:s|pad|unk|eos|bos|eot|start_of_turn|end_of_turn|endoftext|extra_id_\d{1,3})>|<0x[0-9A-Fa-f]{2}>|\[\/?(?:PAD|UNK|INST)\](?!\()|\[control_\d{1,4}\]|(?<=[\p{Ll}\p{N}.,;:!?)])[\u2581\u0120\u010a](?=\p{L})|\u2581(?=\p{L}[^\s]*\u2581)/gu;
/** How every special token of ASCII opens, by its first char ('<' or '['): a text without one of these (and without the marker chars Scan.markSeen reports) has none. */
const ASCII_MARKS = [
  '<|',
  '<s>',
  '</s>',
  '<pad',
  '<unk',
  '<eos',
  '<bos',
  '<eot',
  '<start_of',
  '<end_of',
  '<endof',
  '<extra_id',
  '<0x',
  '[PAD',
  '[UNK',
  '[INST',
  '[/INST',
  '[control_',
];
/** The second chars of ASCII_MARKS by their code: bit 1 for a mark opening with '<', bit 2 with '[' (a bracket followed by none opens none). */
const SECOND_CHARS = new Uint8Array(128);
for (const m of ASCII_MARKS) SECOND_CHARS[m.charCodeAt(1)] = SECOND_CHARS[m.charCodeAt(1)]! | (m.charCodeAt(0) === 0x3c ? 1 : 2);
/** How many chars the broken chars are counted within: a broken decode is dense, a stray control in a long document is not. */
export const ODD_SPAN = 1000;
/** A letter, or U+FFFD: what a U+FFFD that a decode broke sits next to. */
const LETTER_OR_REPLACEMENT = /[\p{L}\ufffd]/u;
/** Tokens that only a broken sampler or decoder emits: padding, unknown, byte fallback. */
const BROKEN = /pad|unk|<0x/i;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/**
 * A header of a turn of an instruction template at a line start: its role word, then a colon.
 * Group 1: a user's or an instruction's role; group 2: a response's.
 */
const TURN_HEADER = /^#{1,4}[ \t]*(?:(instruction|human|user|指示|指令|用户|명령어)|(response|assistant|応答|助手|응답))[ \t]*[:：]/gimu;

/** An end-of-turn token that ends the text. */
const TRAILING_END = /(?:<\|(?:im_end|eot_id|end|endoftext)\|>|<\/s>|<\uff5c[^\uff5c]*end[^\uff5c]*\uff5c>)\s*$/u;

export interface SpecialFigures {
  /** Special tokens outside code (a trailing end-of-turn token aside), the first one and where. */
  specialTokens: number;
  /** Of those, pad/unk/byte tokens glued into the text on both sides. */
  brokenTokens: number;
  first: string;
  firstAt: number;
  /** The most broken chars within ODD_SPAN chars, and where the first of them is. */
  oddChars: number;
  firstOddAt: number;
  /** Instruction headers of a template after a response header of one, outside code; where the first is and what it says. */
  newTurns: number;
  newTurnAt: number;
  newTurn: string;
}

export const specialTokens = {
  name: 'special_tokens' as const,
  kinds: SPECIAL_KINDS,
  thresholds: THRESHOLDS,
  figures(scan: Scan): SpecialFigures {
    const text = scan.text();
    const out: SpecialFigures = {
      specialTokens: 0,
      brokenTokens: 0,
      first: '',
      firstAt: -1,
      oddChars: 0,
      firstOddAt: -1,
      newTurns: 0,
      newTurnAt: -1,
      newTurn: '',
    };
    // a header opens with '#': most texts with one are markdown, and the pattern reads line starts only
    if (text.includes('#')) newTurns(scan, text, out);
    // the patterns run only on texts that hold one of their marks: most texts hold none
    const special = scan.markSeen || opensMark(scan, text);
    // the tokenizer saw every char: it says whether any broken one is there (a search of the text costs 1 ms per MB)
    const odd = scan.oddSeen;
    if (!special && !odd) return out;
    const trailing = TRAILING_END.exec(text.slice(-64));
    const stop = trailing ? text.length - (64 - trailing.index) : Infinity;
    SPECIAL.lastIndex = 0;
    for (let m = special ? SPECIAL.exec(text) : null; m; m = SPECIAL.exec(text)) {
      if (m.index >= stop || inCode(scan, m.index)) continue;
      const before = text.charCodeAt(m.index - 1);
      const after = text.charCodeAt(m.index + m[0].length);
      if (BROKEN.test(m[0]) && m.index > 0 && !isSpace(before) && !Number.isNaN(after) && !isSpace(after)) out.brokenTokens++;
      if (out.specialTokens++ === 0) {
        out.first = m[0];
        out.firstAt = m.index;
      }
    }
    if (odd) densestOdd(text, out);
    return out;
  },
  judge(f: SpecialFigures, t: Values<typeof THRESHOLDS>): Array<Finding<SpecialKind>> {
    const out: Array<Finding<SpecialKind>> = [];
    if (f.specialTokens >= t.specialTokensFail || f.brokenTokens >= t.brokenTokensFail)
      out.push(
        finding('special_tokens', 'fail', f.firstAt, `${f.specialTokens} template or vocabulary tokens outside code (first: "${f.first}")`),
      );
    else if (f.specialTokens > 0)
      out.push(finding('special_tokens', 'warn', f.firstAt, `${f.specialTokens} template or vocabulary token outside code ("${f.first}")`));
    if (f.newTurns >= t.newTurnsFail)
      out.push(
        finding(
          'special_tokens',
          'fail',
          f.newTurnAt,
          `the answer writes the next turn of its template itself: "${f.newTurn}" after a response header (${f.newTurns} such turn${f.newTurns === 1 ? '' : 's'}, outside code)`,
        ),
      );
    if (f.oddChars >= t.oddCharsFail)
      out.push(
        finding(
          'gibberish',
          'fail',
          f.firstOddAt,
          `${f.oddChars} broken chars (U+FFFD inside words, ⁇ for unknown tokens, control chars) within ${ODD_SPAN} chars`,
        ),
      );
    return out;
  },
} satisfies Detector<SpecialFigures, SpecialKind, typeof THRESHOLDS>;

/** Is the char at `i` one that only a broken decode leaves: U+FFFD next to a letter or another one, ⁇, a control but whitespace outside a string literal? */
function isOdd(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x2047) return true;
  if (c === 0xfffd) return LETTER_OR_REPLACEMENT.test(text.charAt(i - 1)) || LETTER_OR_REPLACEMENT.test(text.charAt(i + 1));
  // C0 but tab, newline, vertical tab, form feed and CR; DEL and C1; not when quoted in a string literal of code, where
  // tests of encodings and terminals write them on purpose
  return (c <= 0x08 || (c >= 0x0e && c <= 0x1f) || (c >= 0x7f && c <= 0x9f)) && !inStringLiteral(text, i);
}

/** The most broken chars within ODD_SPAN chars into out.oddChars, the first of them into out.firstOddAt: one pass of char codes. */
function densestOdd(text: string, out: SpecialFigures): void {
  const at: number[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // most chars are neither: one comparison each
    if (c > 0x9f && c !== 0xfffd && c !== 0x2047) continue;
    if (!isOdd(text, i)) continue;
    at.push(i);
    while (i - at[from]! >= ODD_SPAN) from++;
    if (at.length - from > out.oddChars) {
      out.oddChars = at.length - from;
      out.firstOddAt = at[from]!;
    }
  }
}

/** Counts into `out` the instruction headers that follow a response header, outside code. */
function newTurns(scan: Scan, text: string, out: SpecialFigures): void {
  let answered = false;
  TURN_HEADER.lastIndex = 0;
  for (let m = TURN_HEADER.exec(text); m; m = TURN_HEADER.exec(text)) {
    if (inCode(scan, m.index)) continue;
    if (m[2] !== undefined) answered = true;
    else if (answered) {
      answered = false;
      if (out.newTurns++ === 0) {
        out.newTurnAt = m.index;
        out.newTurn = m[0];
      }
    }
  }
}

/**
 * Does a '<' or '[' of the text open a special token (ASCII_MARKS)? Each is its own token, so
 * the tokens say where they are: a look at those few places instead of a search of the text.
 */
function opensMark(scan: Scan, text: string): boolean {
  const { id, start, n } = scan.tokens;
  for (let i = 0; i < n; i++) {
    const c = id[i]!;
    if (c !== 0x3c && c !== 0x5b) continue;
    const at = start[i]!;
    // most brackets open a tag or a link: the char after them rules them out before the marks are compared
    const next = text.charCodeAt(at + 1);
    if (!(next < 128 && SECOND_CHARS[next]! & (c === 0x3c ? 1 : 2))) continue;
    for (const m of ASCII_MARKS) if (m.charCodeAt(0) === c && m.charCodeAt(1) === next && text.startsWith(m, at)) return true;
  }
  return false;
}

/** Is the token at char offset `at` code (or markup)? */
function inCode(scan: Scan, at: number): boolean {
  const t = scan.tokens;
  let lo = 0;
  let hi = t.n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.start[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return t.n > 0 && (t.info[lo]! & F_CODE) !== 0;
}
