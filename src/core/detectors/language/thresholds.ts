/**
 * The language detector's thresholds: each with its default and the healthy-text figure it
 * sits beyond (npm run bench -- thresholds). The rule table (rules.ts) names the one that fired.
 */
export const LANGUAGE_THRESHOLDS = {
  malformedShare: {
    value: 0.3,
    why: 'share of the letters of a window of prose (or of a whole short output) in malformed chunks that fails as gibberish (a chunk weighs its letters, up to 100). Healthy windows reach 0.2 (npm run bench -- thresholds)',
  },
  noiseShare: {
    value: 0.3,
    why: 'share of the chunks of a window of prose (8+ chunks) with punctuation where no language puts it (marks doubled or mixed, "!" before a lower-case word, punctuation alone with a dot or comma) that fails as gibberish. Healthy model outputs reach 0.11, the real files 0.2 (SQL placeholders; npm run bench -- thresholds)',
  },
  singleLetterShare: {
    value: 0.7,
    why: 'share of the chunks of a full window of prose (24 chunks) that are one lower-case Latin or Cyrillic letter, no code, no number beside it in the chunk ("m-0") and not opening an item or a cell (after "1." or "|"), from which it fails as gibberish: text spelt letter by letter ("t h e  m o o n"), which reads 0.96-1.0. The one-letter words of languages count too (left out, spelt text read 0.5-0.7). Healthy model outputs reach 0.25 (Russian prose; Spanish 0.21), the real files 0.375 (a manual of bc) at a p99.9 of 0.29 (npm run bench -- thresholds)',
  },
  shortPieceShare: {
    value: 0.55,
    why: 'share of the chunks of a full window of prose with few breaks (a quarter of its chunks at most) that are two or three lower-case letters, all of ASCII (a letter past ASCII makes a syllable of Vietnamese, `để`, not a piece), and no function word, no code and no number ("ng", "ome", "ff"), from which it fails as gibberish: words cut into pieces of a few letters and strung with spaces (word-piece salad), which reads 0.54-0.88 in 70 drawn texts (npm run bench -- families). A word of two or three letters that says something is rare in prose: healthy model outputs reach 0.29 (a song chorus), the real files 0.46 (HTML pages of the Node.js manual) at a p99.9 of 0.375, whole and cut at 4 points (npm run bench -- thresholds)',
  },
  saladFunctionShare: {
    value: 0.05,
    why: 'share of chunks that are function words under which a window of Latin or Cyrillic prose, run on without breaks, is word salad. Prose has 0.3-0.55',
  },
  soupFunctionShare: {
    value: 0.9,
    why: 'share of function words in a full window of prose with few breaks (a quarter of its chunks at most) from which it fails as word salad: "and the of the and the". Prose keeps a content word in every four or five chunks: healthy model outputs reach 0.79, the real files 0.83 (npm run bench -- thresholds)',
  },
  saladBreakShare: {
    value: 0.1,
    why: '...with at most this share of chunks followed by punctuation or a line break: lists, titles, tables and keyword lines break every 1-3 chunks',
  },
  saladEndWords: {
    value: 6,
    why: 'words that end the text after a sentence, the first in lower case, none a function word and no punctuation or line break between them, that fail as word salad: a fluent answer whose last words are strung keywords ("... this spring. hotel flight cheap deal booking tram"). A sentence in a script with capitals starts with one: no healthy model output ends so, the real files in 2 such words at most (6 readings of 8,055, whole and cut; npm run bench -- thresholds)',
  },
  listItems: {
    value: 40,
    why: 'items in a row on one line, each a word and none a function word (commas, semicolons or spaces between them), that fail when listRepeatShare of them repeat an earlier item: a run-on list drawn from a few words, alone on its line or after a sentence that ran into it. Healthy model outputs reach 14 such items, the real files 45 (a package.json keyword list) at a p99.9 of 18 (npm run bench -- thresholds)',
  },
  listRepeatShare: {
    value: 0.4,
    why: 'share of the items of such a line that repeat an earlier one: a healthy list names each thing once (0-0.1)',
  },
  wordLineFunctionRepeats: {
    value: 3,
    why: 'function words ("the", "with", "of") on lines of their own in one run of one-word lines (blank lines aside, outside fenced code) that say again one said before in the run, from which it fails as word salad: a text fallen apart into one word a line. A list written one item a line names each thing once: no healthy model output, real file or cut of one repeats any (0 of 728 outputs and 2,276 files, whole and cut at 4 points; the most function-word lines in a run is 11, HTTP header names such as "If-Match" in a list of code); 120 drawn collapses (npm run bench -- families) repeat 2-59, 119 of them 3 or more',
  },
  wordLineFunctions: {
    value: 8,
    why: '...when the run holds at least this many function-word lines: a poem or a lesson may set a few on lines of their own',
  },
  wordLineFunctionShare: {
    value: 0.8,
    why: '...and under this share of its lines are function words: a list of the function words themselves (a stop-word list, "yes" and "no" a line) is a list, while the collapses read 0.29-0.51',
  },
  codeChunkShare: {
    value: 0.5,
    why: 'share of 24 chunks of prose in a row that read as random codes the text had not used before, that fails as gibberish: 3-8 capital letters and digits mixed ("7QX2", "0PL9W"; two capitals and a digit, not hex, opening with a digit or in three runs: letters then a number is a name), or 4-24 chars of every class in turn between words on a line ("yDgU7j", "K6so&CJ#P"; a change of class at 60% of the chars, two capitals, no three lower-case letters in a row, not each lower-case letter right after a capital). Neither counts where it opens an item or a cell, or ends in a comma or semicolon (a list of codes is asked for), nor when the text used it before (a name it goes on using); the shapes are rows of test/core/detectors/languageReadings.test.ts. Healthy model outputs reach 0.083, the real files 0.208 (HTML; npm run bench -- thresholds), a sentence of eight random-looking part numbers written apart by spaces 0.47, so the threshold stays above that. Chunks of printable chars drawn at random read 0.46-0.63 over 150 chunks, 0.54-0.71 over 300',
  },
  oddScriptWords: {
    value: 2,
    why: 'words of prose whose Latin and Cyrillic letters no language orders so (a Cyrillic letter before a lower-case Latin one, "Сноopp"; the two scripts back and forth, "Geplaatstвенiones"), from which the output fails as gibberish: a model whose output fell apart into pieces of two vocabularies. Letters both alphabets write alike do not tell a script, and an identifier\'s parts between underscores are read apart. No model output or real file holds one (the ok texts of the three real corpora and test/corpus, the 2,276 real files: 3,640 model-output and 11,380 real-file readings, whole and cut at 4 points); of the 110,508 translations of the gettext catalogs (npm run bench -- translations) 9 hold one, none two (a translated placeholder with a Latin suffix, "ПРЕФИКСab"; a Latin ô in a Serbian word), so the threshold is the first count past them; 13 of the 236 real collapses hold 1 to 10, 10 of them 2 or more. A Latin name with a Cyrillic ending ("iPhoneа") or a Cyrillic name with a Latin acronym ("ЯндексGPT") is one switch and is not counted; npm run bench -- thresholds',
  },
  shortCodeLineShare: {
    value: 0.5,
    why: 'share of the lines of a short output (under 40 lines that hold a word, judged whole: the words before the codes thin any window of codeChunkShare) that are one new random code each, as codeChunkShare reads a code ("7QX2", "0PL9W"; a name, letters then a number, is none), from which it fails as gibberish with 3 such lines or more: half a sentence, then lines of codes. No healthy text has a single such line: none of the 29,604 readings of the three real corpora, test/corpus and the real files (whole and cut), 143,709 translations and 15,964 readings of source code (npm run bench -- thresholds); 109 of 120 drawn outputs of the shape read 0.5-0.9 (npm run bench -- families). An answer that lists three or more codes a line each under one line of its own fails too, as eight of them fail codeChunkShare',
  },
  shortMarkLineShare: {
    value: 0.8,
    why: 'share of the lines of a short output (3 to 39 lines, blank ones aside: judged whole, as no window of markLineShare fills) that hold no letter, no digit and no bracket or bar, marks alone ("#", "```", "!!"), from which it fails as gibberish: an output of nothing but marks. Lines of brackets are the structure of code and data, and a bar that of a table or a drawing (the empty rows of a table, `|   |   |`; an ASCII figure, ` /|\\ `, which failed two cuts of a healthy model output). Healthy outputs of the three real corpora judged so (185) reach 0.33, the synthetic ones 0, the real files 0.08 whole and 0.67 cut after 3 to 39 lines (8,584 cuts: a comment opener and closer); npm run bench -- thresholds',
  },
  shortNumberMarkLineShare: {
    value: 0.5,
    why: 'share of the lines of a short output (under 40 lines, blank ones aside, judged whole) that hold numbers and runs of one mark, one run at least that no notation writes beside numbers (3 marks or more, or 2 that open or close the line: "48213 *** 7 ****", "** 90123 *"), or marks alone, from which it fails as gibberish when 2 lines are of numbers and runs and 3 of either: digits and runs of stars with a stray word or two. An operator ("2 ** 10", "3 -- 5"), a list item ("* 2"), a bracket ("[ 1 ]") and a row of a chart, one run after a number ("5 *****", "10 ***** 10"), make no such line. Of 189,277 healthy readings (the ok texts of the three real corpora and test/corpus, the 2,276 real files, whole and cut; 143,709 translations; source code whole and cut) one has a single line of numbers and runs (a share of 0.1), none two; 57 of 120 drawn outputs of the shape reach 0.5 with 2 such lines and 3 in all (npm run bench -- families)',
  },

  markLineShare: {
    value: 0.5,
    why: 'share of 40 lines in a row (blank ones aside) that hold marks alone ("**", ".", ",", ";") that fails as gibberish: a text that fell apart into fragments between lone marks. Healthy texts reach 0.13 (a manual in HTML; model outputs 0.03; npm run bench -- thresholds); a line of one "*" alone, the blank line of a comment block, is not counted',
  },
  switchLetters: {
    value: 12,
    why: "letters of prose in one run in another script than the text's own (out of Latin) that fail: a sentence. Healthy texts quote at most 6 (a word in another language; npm run bench -- thresholds)",
  },
  switchLettersAlphabet: {
    value: 200,
    why: 'the same between two alphabets written with spaces (Latin, Greek, Cyrillic, Hebrew, Arabic...), where quoted examples of another language run a phrase or two: healthy texts reach 33 (Greek examples in an English grammar quiz)',
  },
  variantSwitchMarks: {
    value: 12,
    why: 'characters in a row written the way of the other Chinese variant (simplified or traditional) than the text opens in, none of its own between them, that fail as a switch: a sentence or two. A quoted title or name has 1-3; the healthy texts here hold few Chinese texts (one model output and two READMEs, longest run 1), so this is set from how Chinese is written more than measured',
  },
  switchLettersIntoLatin: {
    value: 600,
    why: 'the same for a run of Latin prose in a text written in Chinese, Japanese or Korean, where Latin terms, names and references are normal: healthy texts reach 420 (a list of references)',
  },
} as const;

export type LanguageThresholds = typeof LANGUAGE_THRESHOLDS;
