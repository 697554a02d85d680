import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';
import { repoRoot } from '../helpers/repoRoot.js';

/**
 * False alarms on healthy text in many languages, written by people and found on this machine
 * (never copied into the repo): TypeScript's diagnostic messages in its 13 translations (short
 * sentences about code: Latin terms inside Korean, Chinese, Japanese, Russian, Czech, Polish or
 * Turkish prose), each alone and six in a row, GnuPG's help texts in their 28 translations,
 * each entry and each file whole, and the translations of the gettext catalogs Debian installed
 * (/usr/share/locale: coreutils, GTK, GLib, bash, PostgreSQL, ... in about a hundred languages),
 * each of 80 chars or more. None is degenerate, so every fail is a false alarm. The development
 * corpora hold few answers in these languages; this set is where a reading that assumes
 * English-like prose shows.
 */
export interface TranslatedText {
  /**
   * 'ts' (one message), 'ts6' (six in a row), 'gpg' (one help entry), 'gpgall' (a help file whole), 'gettext' and
   * 'gettextHeld' (one translation of a catalog: the catalogs are split in two halves by the hash of their name, and
   * only the first half's fails are read when a reading is changed for them; the second half tells how that carries).
   */
  source: 'ts' | 'ts6' | 'gpg' | 'gpgall' | 'gettext' | 'gettextHeld';
  lang: string;
  name: string;
  text: string;
}

const GNUPG = '/usr/share/gnupg';
const LOCALE = '/usr/share/locale';
/** Translations shorter than this are labels and menu items, not a sentence. */
const GETTEXT_MIN_CHARS = 80;

export function translatedTexts(): TranslatedText[] {
  const out: TranslatedText[] = [];
  const ts = join(repoRoot(), 'node_modules', 'typescript', 'lib');
  for (const lang of list(ts).filter((d) => /^[a-z]{2}(-[a-z]{2})?$/.test(d))) {
    let messages: string[];
    try {
      messages = Object.values(
        JSON.parse(readFileSync(join(ts, lang, 'diagnosticMessages.generated.json'), 'utf8')) as Record<string, string>,
      );
    } catch {
      continue;
    }
    for (const [i, text] of messages.entries()) out.push({ source: 'ts', lang, name: `ts/${lang}/${i}`, text });
    for (let i = 0; i + 6 <= messages.length; i += 6)
      out.push({ source: 'ts6', lang, name: `ts6/${lang}/${i}`, text: messages.slice(i, i + 6).join(' ') });
  }
  for (const file of list(GNUPG).filter((f) => /^help\..*txt$/.test(f))) {
    const lang = file.replace(/^help\.?|\.?txt$/g, '') || 'en';
    // entries open with a ".key" line and end with a "." line; "#" lines are comments
    const entries = readFileSync(join(GNUPG, file), 'utf8')
      .split(/\n\.\n/)
      .map((e) =>
        e
          .split('\n')
          .filter((l) => !l.startsWith('#') && !l.startsWith('.'))
          .join('\n')
          .trim(),
      )
      .filter((e) => e.length > 0);
    for (const [i, text] of entries.entries()) out.push({ source: 'gpg', lang, name: `gpg/${lang}/${i}`, text });
    out.push({ source: 'gpgall', lang, name: `gpgall/${lang}`, text: entries.join('\n\n') });
  }
  // en@quot and en@boldquot are English with the quotes (and terminal bold) put in by a script: no translation
  for (const locale of list(LOCALE).filter((l) => !/@(bold)?quot$/.test(l))) {
    const dir = join(LOCALE, locale, 'LC_MESSAGES');
    for (const file of list(dir).filter((f) => f.endsWith('.mo'))) {
      // only the translations of 80+ chars are kept: a catalog is read whole, then filtered
      const domain = file.slice(0, -3);
      const source = halfOf(domain) === 0 ? 'gettext' : 'gettextHeld';
      for (const [i, text] of catalogTranslations(join(dir, file)).entries())
        if (text.length >= GETTEXT_MIN_CHARS) out.push({ source, lang: locale, name: `${source}/${locale}/${domain}/${i}`, text });
    }
  }
  return out;
}

/** 0 or 1: the half a catalog falls in, by an FNV-1a hash of its domain name (stable across machines and runs). */
function halfOf(domain: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < domain.length; i++) h = Math.imul(h ^ domain.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 2;
}

/**
 * The translations of a compiled gettext catalog (.mo): a header of 32-bit words in the file's byte order (magic
 * 0x950412de, revision, count, offset of the originals' table, offset of the translations' table), each table a
 * length and an offset per string. The translation of the empty string is the header, whose charset decodes the
 * rest; plural forms are parted by NUL. A file that is no catalog, or a charset this Node cannot decode, gives none.
 */
function catalogTranslations(path: string): string[] {
  let b: Buffer;
  try {
    b = readFileSync(path);
  } catch {
    return [];
  }
  if (b.length < 28) return [];
  const little = b.readUInt32LE(0) === 0x950412de;
  if (!little && b.readUInt32BE(0) !== 0x950412de) return [];
  const word = (at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const count = word(8);
  const originals = word(12);
  const translations = word(16);
  if (translations + 8 * count > b.length || originals + 8 * count > b.length) return [];
  let decoder: TextDecoder | null = null;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = word(translations + 8 * i);
    const at = word(translations + 8 * i + 4);
    if (at + length > b.length) return out;
    const bytes = b.subarray(at, at + length);
    if (word(originals + 8 * i) === 0) {
      const charset = /charset=([\w-]+)/i.exec(bytes.toString('latin1'))?.[1] ?? 'utf-8';
      try {
        decoder = new TextDecoder(charset, { fatal: true });
      } catch {
        // a template's "charset=CHARSET", or a name this Node does not know: read as UTF-8, which rejects what it is not
        decoder = new TextDecoder('utf-8', { fatal: true });
      }
      continue;
    }
    try {
      out.push(...(decoder ?? new TextDecoder('utf-8', { fatal: true })).decode(bytes).split('\0'));
    } catch {
      // a translation its charset does not decode is left out
    }
  }
  return out;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
