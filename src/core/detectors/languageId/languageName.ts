/**
 * The English names of languages, made on first use: building Intl.DisplayNames loads the
 * runtime's locale data (about 11 ms), which every process that imports the analyzer would
 * otherwise pay at start-up, while only a finding or a report that names a language needs it.
 */
let names: Intl.DisplayNames | null = null;

/** A language's English name from its ISO 639-1 code ('zh' → 'Chinese'), or the code when the runtime has none. */
export function languageName(code: string): string {
  names ??= new Intl.DisplayNames(['en'], { type: 'language' });
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
