/**
 * Whitespace-delimited chunks of the prose (code, markup and addresses left out), read as a
 * reader reads words: does each look like a word of some language, is it a function word,
 * does punctuation or a line break follow it, which script is it in. A chunk is malformed
 * when no language writes a word like it: letters of two scripts glued where the prose
 * writes words apart ("artillery日至itm" in English text; "用Python" in Chinese is normal;
 * "HinweisЉ"), 25+ letters run together, a comma or quote glued between two words
 * ("theater,angel"). Case flips, digits and missing vowels are left out: code and tech prose
 * are full of them ("ErrNotFound", "uint64", "npm"); so are chunks of code and data.
 */
import { F_ALNUM, F_LOWER } from '../../text/tokenizer.js';
import {
  F_CODE,
  F_FENCE,
  F_FUNC,
  F_LINE,
  F_MIXSCRIPT,
  F_NUM,
  F_SPACE,
  K_MARK,
  K_PUNCT,
  K_SOLO,
  K_WORD,
  KIND_MASK,
  SCRIPT_SHIFT,
  type TokenBuffer,
} from '../../text/tokens.js';
import { SC_NONE } from '../../charClass.js';
import { C_AFTER, C_BREAK, C_CASED, C_CODEISH, C_FUNC, C_GLUE, C_LINE, C_MALFORMED, type Chunks, chunkSet, grow } from './chunks.js';
import { isBracketOrQuote, isClausePunct, isCodePunct, isSentenceMark, RUN_LOOSE, RUN_NOISY, runMarks } from './marks.js';
import { escapesBreak, isBacktick, isLetterToken, opensTag, partsLabels, writesTogether } from './tokenShapes.js';

/** Lower-case letters after which a word is glued words, and letters of any case. */
const GLUED_LETTERS = 25;
const GLUED_ANY = 60;
/** Backslashes, slashes or bars in a row alone between words that no writing has ("the \\\\\\ of"). */
const BAR_RUN = 3;
/** Commas glued inside one chunk from which it is fields of data (a CSV row), not words glued by a comma. */
const DATA_COMMAS = 2;

/** The bits of the token flags read into chunk flags. */
const BIT_F_FUNC = 31 - Math.clz32(F_FUNC);
const BIT_F_LOWER = 31 - Math.clz32(F_LOWER);
const BIT_C_FUNC = 31 - Math.clz32(C_FUNC);
const BIT_C_CASED = 31 - Math.clz32(C_CASED);

/** Letters per script of the chunk being read when it has letters of two scripts or more; the chunk's close zeroes them. */
const SCRIPTS = new Int32Array(16);

export function readChunks(t: TokenBuffer, text: string, from = 0, fenced = false): Chunks {
  // the prose reading keeps no chunk of code; the fenced one keeps only chunks inside fenced blocks, and their fence
  // alone does not make them code (a URL, a tag or a comment inside the block still does)
  const codeOf = fenced ? F_CODE | F_FENCE : F_CODE;
  const keepOnly = fenced ? F_FENCE : 0;
  // the buffer's arrays in locals: the loop reads them at every token
  const { info: tInfo, start: tStart, end: tEnd, id: tId, n: tn } = t;
  // a chunk takes a token and the whitespace after it: half the tokens is room for all of them but in odd texts
  const out = chunkSet(fenced, Math.max(16, (tn - from) >> 1));
  // the chunks' arrays and count in locals too (taken again when the set grows), written back at the end
  let cn = 0;
  let oStart = out.start;
  let oFlags = out.flags;
  let oScript = out.script;
  let oLetters = out.letters;
  let oScriptLetters = out.scriptLetters;
  let oKey = out.key;
  let oNoise = out.noise;
  let flags = 0;
  let letters = 0;
  let start = -1;
  let code = false;
  let sawFence = false;
  let prevScript = SC_NONE;
  const scripts = SCRIPTS.fill(0);
  // the scripts the chunk has letters of, one bit each: most chunks have one
  let scriptMask = 0;
  let commas = 0;
  let key = 0;
  let line = false;
  let lineOwed = false;
  // an escaped line break ("\n") came in the chunk: the chunk after the whitespace starts a line
  let escapedLine = false;
  // a chunk without letters, or of code, came since the last kept one
  let afterOwed = false;
  // the run of sentence marks (, . ; : ! ?) going on: its length, its dots, its first two marks (the counts are zeroed
  // when a run starts)
  let run = 0;
  let runDots = 0;
  let runCommas = 0;
  let runColons = 0;
  let runPair = 0;
  let lastEnd = -1;
  // RUN_NOISY: punctuation where no language puts it; RUN_LOOSE: a comma, or a dot that is no ellipsis, somewhere in the
  // chunk
  let marks = 0;
  // a digit in the chunk
  let digits = false;
  let enclosed = false;
  // the longest run in the chunk of one of \ / | (and the run going on)
  let barMax = 0;
  let barRun = 0;
  let barChar = 0;
  let barEnd = -1;
  let noiseOwed = 0;
  // one loop over the tokens and one step past the last: a chunk is closed where whitespace or a glued tag starts the
  // next one, and at the end. The chunk's state lives in this function's locals (no closure shares them), which keeps
  // them out of memory in the loop
  for (let i = from; ; i++) {
    const info = i < tn ? tInfo[i]! : 0;
    let closing = i === tn;
    let breakAfter = false;
    if (closing) {
      // past the last token: the chunk going on ends with the text
    } else if (i > from && info & F_SPACE) {
      line = (info & F_LINE) !== 0 || escapedLine;
      escapedLine = false;
      closing = true;
      breakAfter = line;
    } else if (
      start >= 0 &&
      (code
        ? i > from && (tId[i - 1] === 0x3e || (isBacktick(t, i - 1) && !(info & F_CODE))) && (info & KIND_MASK) === K_SOLO
        : letters > 0 && writesTogether(prevScript) && (opensTag(t, i) || isBacktick(t, i)))
    ) {
      // a tag or a code span glued to Chinese, Japanese or Thai ("答案。<eoa>", "<b>粗体</b>", "将`low`更新为") parts it as a
      // space does: those scripts write no space, so a glued tag or span would take a whole line of prose with it into
      // markup or code (in spaced prose it takes a word)
      line = false;
      closing = true;
    }
    if (closing) {
      // "!" or "?" alone ends a sentence: the next one does not start in lower case
      if (run === 1 && (runPair === 0x21 || runPair === 0x3f) && i < tn && (info & (KIND_MASK | F_LOWER)) === (K_WORD | F_LOWER))
        marks |= RUN_NOISY;
      if (run > 0) {
        marks |= runMarks(run, runDots, runCommas, runColons, runPair);
        run = 0;
      }
      // a chunk of punctuation alone with a comma or a dot in it ("**.", ",-", ".."): not a lone mark (a table's "." for
      // nothing), a number ("1."), an ellipsis, code ("},") or a quoted mark ('",')
      if (letters === 0 && marks & RUN_LOOSE && !digits && !enclosed && tEnd[i - 1]! - start > 1) marks |= RUN_NOISY;
      // three or more backslashes, slashes or bars alone inside a line, between words ("the \\\\\\ of"): no writing has
      // them ("///" opening a line is a comment)
      if (letters === 0 && barMax >= BAR_RUN && !enclosed && !(flags & C_LINE)) marks |= RUN_NOISY;
      const n = cn;
      // a chunk with no letters, or of code or markup, breaks the prose before it ("- item", "|", "<br>")
      if ((letters === 0 || code) && start >= 0 && n > 0) oFlags[n - 1] = oFlags[n - 1]! | C_BREAK;
      // fields glued by commas are data (a CSV row), not words glued by a comma
      if (commas >= DATA_COMMAS) flags |= C_CODEISH;
      // code and data are not words: only letters of two scripts glued count in them
      if (flags & C_CODEISH) flags &= ~C_MALFORMED;
      const noisy = (marks & RUN_NOISY) !== 0;
      if (start >= 0 && letters > 0 && !code) {
        if (n === oStart.length) {
          out.n = n;
          grow(out);
          oStart = out.start;
          oFlags = out.flags;
          oScript = out.script;
          oLetters = out.letters;
          oScriptLetters = out.scriptLetters;
          oKey = out.key;
          oNoise = out.noise;
        }
        if (lineOwed) flags |= C_LINE;
        if (afterOwed) flags |= C_AFTER;
        lineOwed = false;
        afterOwed = false;
        // a chunk of one script has all its letters in it; only a chunk of several counted them per script
        let best = SC_NONE;
        let bestLetters = letters;
        if ((scriptMask & (scriptMask - 1)) === 0) best = 31 - Math.clz32(scriptMask);
        else {
          for (let s = 1; s < 16; s++) if (scripts[s]! > scripts[best]!) best = s;
          bestLetters = scripts[best]!;
        }
        oStart[n] = start;
        oFlags[n] = flags | (breakAfter ? C_BREAK : 0);
        oScript[n] = best;
        oLetters[n] = letters;
        oScriptLetters[n] = bestLetters;
        oKey[n] = key;
        oNoise[n] = (noisy ? 1 : 0) | (noiseOwed << 1);
        noiseOwed = 0;
        cn = n + 1;
      } else {
        // a line break before a chunk that is not kept (a brace, a bullet, code) starts the next kept one's line
        if (flags & C_LINE) lineOwed = true;
        if (start >= 0) afterOwed = true;
        if (noisy && !code && start >= 0) {
          if (n > 0 && oNoise[n - 1]! < 0xfe) oNoise[n - 1] = oNoise[n - 1]! + 2;
          else if (n === 0 && noiseOwed < 0x7f) noiseOwed++;
        }
      }
      if (i === tn) break;
      marks = 0;
      digits = false;
      enclosed = false;
      barMax = 0;
      barRun = 0;
      flags = line ? C_LINE : 0;
      letters = 0;
      commas = 0;
      key = 0x811c9dc5 | 0;
      start = -1;
      code = false;
      prevScript = SC_NONE;
      if ((scriptMask & (scriptMask - 1)) !== 0) scripts.fill(0);
      scriptMask = 0;
    }
    if (keepOnly !== 0 && !(info & F_FENCE)) {
      // outside every fenced block: skipped to the next fenced token, as one chunk of code (dropped)
      if (start < 0) start = tStart[i]!;
      code = true;
      while (i + 1 < tn && !(tInfo[i + 1]! & F_FENCE)) i++;
      continue;
    }
    if (keepOnly === 0 && info & F_FENCE && !(endsEscape(t, text, i) && !(tInfo[i + 1]! & F_FENCE))) {
      // inside a fenced block the prose reading keeps no chunk: every chunk there is code, and all a chunk of code leaves
      // behind is a break after the last kept chunk, a line owed to the next one and the escaped line break that starts
      // the chunk after it. Those are all that is read of the block's tokens (a third of a mixed text's tokens were read
      // in full here only to be dropped)
      if (start < 0) start = tStart[i]!;
      code = true;
      sawFence = true;
      let j = i;
      for (; j < tn; j++) {
        const nx = tInfo[j]!;
        if (j > i) {
          if (!(nx & F_FENCE)) break;
          // an escape whose letter lies past the block: read from it as any token is
          if (endsEscape(t, text, j) && !(tInfo[j + 1]! & F_FENCE)) break;
          const spaced = (nx & F_SPACE) !== 0;
          if (spaced || (tId[j - 1] === 0x3e && (nx & KIND_MASK) === K_SOLO)) {
            // the chunk of code closes, as at the top of the loop
            if (cn > 0) oFlags[cn - 1] = oFlags[cn - 1]! | C_BREAK;
            if (flags & C_LINE) lineOwed = true;
            afterOwed = true;
            line = spaced && ((nx & F_LINE) !== 0 || escapedLine);
            if (spaced) escapedLine = false;
            flags = line ? C_LINE : 0;
          }
        }
        if (endsEscape(t, text, j)) {
          if (text.charCodeAt(tStart[j + 1]!) !== 0x74) escapedLine = true;
          j++;
        }
      }
      i = j - 1;
      continue;
    }
    const k = info & KIND_MASK;
    if (start < 0) start = tStart[i]!;
    if ((info & codeOf) === F_CODE || k === K_MARK) {
      code = true;
      if (info & F_FENCE) sawFence = true;
    }
    if (k === K_PUNCT) {
      const id = tId[i]!;
      // the escape of a line break or a tab ("\n", "\t") in a string of JSON or code is the break it stands for: a help
      // text kept as one string is lines, not one run of words, and the backslash of an escape is no code
      if (id === 0x5c && escapesBreak(t, text, i)) {
        if (run > 0) {
          marks |= runMarks(run, runDots, runCommas, runColons, runPair);
          run = 0;
        }
        if (letters > 0) flags |= C_BREAK;
        if (text.charCodeAt(tStart[i + 1]!) !== 0x74) escapedLine = true;
        i++;
        continue;
      }
      if (isSentenceMark(id)) {
        if (run > 0 && tStart[i] !== lastEnd) {
          marks |= runMarks(run, runDots, runCommas, runColons, runPair);
          run = 0;
        }
        if (run === 0) {
          runDots = 0;
          runCommas = 0;
          runColons = 0;
          runPair = 0;
        }
        if (run < 2) runPair = (runPair << 8) | id;
        run++;
        if (id === 0x2e) runDots++;
        else if (id === 0x2c) runCommas++;
        else if (id === 0x3a) runColons++;
        lastEnd = tEnd[i]!;
      } else if (run > 0) {
        marks |= runMarks(run, runDots, runCommas, runColons, runPair);
        run = 0;
      }
      if (isBracketOrQuote(id)) enclosed = true;
      if (id === 0x5c || id === 0x2f || id === 0x7c) {
        barRun = id === barChar && tStart[i] === barEnd ? barRun + 1 : 1;
        barChar = id;
        barEnd = tEnd[i]!;
        if (barRun > barMax) barMax = barRun;
      }
      // a semicolon between words on one line ("jackal; teapot") parts clauses or items, as a comma does
      if (
        isCodePunct(id) &&
        !(id === 0x3b && i + 1 < tn && (tInfo[i + 1]! & (F_SPACE | F_LINE)) === F_SPACE && isLetterToken(tInfo[i + 1]!, codeOf))
      )
        flags |= C_CODEISH;
      if (id === 0x2c) commas++;
      // a comma, bracket or quote glued between two words ("theater,angel", "word(prev") is no word; inside a fenced
      // block, where the reading counts a semicolon between words as prose does, such a mark is still code ('"a","b"').
      // Chinese, Japanese and Thai write no space after a mark ('的环境。"别路"在'): glued there is how they write
      if (
        letters > 0 &&
        isClausePunct(id) &&
        !(flags & C_CODEISH) &&
        i + 1 < tn &&
        !(tInfo[i + 1]! & F_SPACE) &&
        isLetterToken(tInfo[i + 1]!, F_CODE) &&
        tStart[i + 1] === tEnd[i] &&
        !writesTogether(prevScript) &&
        !writesTogether((tInfo[i + 1]! >> SCRIPT_SHIFT) & 15)
      )
        flags |= C_MALFORMED;
      // punctuation after the chunk's letters ends a clause, an item or a field ("word," "name":)
      if (id !== 0x2d && id !== 0x27 && id !== 0x2019 && letters > 0) flags |= C_BREAK;
      continue;
    }
    if (run > 0) {
      marks |= runMarks(run, runDots, runCommas, runColons, runPair);
      run = 0;
    }
    const script = (info >> SCRIPT_SHIFT) & 15;
    const len = tEnd[i]! - tStart[i]!;
    if (script === SC_NONE) {
      if (k === K_WORD) digits = true;
      continue;
    }
    flags &= ~C_BREAK;
    key = Math.imul(key ^ tId[i]!, 0x01000193);
    const add = k === K_SOLO ? 1 : len;
    const bit = 1 << script;
    if (scriptMask !== bit && scriptMask !== 0) {
      // a second script in the chunk: from here its letters are counted per script (the first one's so far are all of them)
      if ((scriptMask & (scriptMask - 1)) === 0) scripts[31 - Math.clz32(scriptMask)] = letters;
      scripts[script] = scripts[script]! + add;
    }
    letters += add;
    scriptMask |= bit;
    // set from the token's bits, not by a branch: whether a word is a function word or has a capital is as good as random
    // to the processor
    flags |= ((info >> BIT_F_FUNC) & 1) << BIT_C_FUNC;
    if (k === K_WORD) flags |= ((~info >> BIT_F_LOWER) & 1) << BIT_C_CASED;
    // case flips ("ErrNotFound", "PropTech"), digits in words ("uint64", "mp3") and abbreviations without vowels ("npm",
    // "html") are names in code and tech prose: not counted
    if (info & F_MIXSCRIPT) flags |= C_MALFORMED;
    // words run together: 25+ lower-case letters ("brazilcanadagermany"), or 60+ letters whatever their case; an identifier
    // with capitals or underscores ("EventEmitterAsyncResource", "FST_ERR_DEC_ALREADY_PRESENT") is code
    if (k === K_WORD && len >= GLUED_LETTERS && ((info & F_LOWER) !== 0 || (len >= GLUED_ANY && !(info & (F_ALNUM | F_NUM)))))
      flags |= C_MALFORMED;
    // a dot, "@", "/" or ":" between the two scripts parts the labels of a name (a host "食狮.com.cn", a mail address, a
    // path), each in its own script: no letters glued
    if (prevScript !== SC_NONE && script !== prevScript && tStart[i] === tEnd[i - 1] && !partsLabels(tInfo[i - 1]!, tId[i - 1]!))
      flags |= C_GLUE;
    prevScript = script;
  }
  out.n = cn;
  out.fenced = sawFence;
  return out;
}

/** Token i is a backslash that escapes a line break or a tab ("\n", "\t"): it and the letter after it stand for the break. */
function endsEscape(t: TokenBuffer, text: string, i: number): boolean {
  return t.id[i] === 0x5c && (t.info[i]! & KIND_MASK) === K_PUNCT && escapesBreak(t, text, i);
}
