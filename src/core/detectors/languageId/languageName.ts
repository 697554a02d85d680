/** A language's English name from its ISO 639-1 code ('zh' → 'Chinese'), or the code when the runtime has none. */
const NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

export function languageName(code: string): string {
  try {
    return NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}
