/**
 * The languages the identifier knows (eld's `small` data, ISO 639-1), which is what
 * expect.language may name; a test checks the list against eld's own.
 */
// biome-ignore format: a table of codes reads better than one a line
export const IDENTIFIED_LANGUAGES = [
  'am', 'ar', 'az', 'be', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'eu',
  'fa', 'fi', 'fr', 'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'is', 'it', 'ja', 'ka', 'kn', 'ko',
  'ku', 'lo', 'lt', 'lv', 'ml', 'mr', 'ms', 'nl', 'no', 'or', 'pa', 'pl', 'pt', 'ro', 'ru',
  'sk', 'sl', 'sq', 'sr', 'sv', 'ta', 'te', 'th', 'tl', 'tr', 'uk', 'ur', 'vi', 'yo', 'zh',
] as const;

/**
 * The script each language is written in, as the language detector names scripts (charClass.ts): what a switch into a
 * language the prompt asked for looks like to a reading of scripts. Languages written in more than one script
 * (Serbian, Kurdish) or in one the detector reads as `other` (Amharic, Lao) have none here.
 */
const SCRIPT_OF: Record<string, string> = {
  zh: 'cjk',
  ja: 'cjk',
  ko: 'hangul',
  be: 'cyrillic',
  bg: 'cyrillic',
  ru: 'cyrillic',
  uk: 'cyrillic',
  el: 'greek',
  hy: 'armenian',
  he: 'hebrew',
  ar: 'arabic',
  fa: 'arabic',
  ur: 'arabic',
  bn: 'indic',
  gu: 'indic',
  hi: 'indic',
  kn: 'indic',
  ml: 'indic',
  mr: 'indic',
  or: 'indic',
  pa: 'indic',
  ta: 'indic',
  te: 'indic',
  th: 'thai',
  ka: 'georgian',
};
const UNSURE = new Set(['sr', 'ku', 'am', 'lo']);

/** The script a language (ISO 639-1) is written in, by the language detector's names; null when unknown or several. */
export function scriptOfLanguage(code: string): string | null {
  if (UNSURE.has(code) || !(IDENTIFIED_LANGUAGES as readonly string[]).includes(code)) return null;
  return SCRIPT_OF[code] ?? 'latin';
}
