import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repoRoot.js';

/**
 * False alarms on healthy text in many languages, written by people and found on this machine
 * (never copied into the repo): TypeScript's diagnostic messages in its 13 translations (short
 * sentences about code: Latin terms inside Korean, Chinese, Japanese, Russian, Czech, Polish or
 * Turkish prose), each alone and six in a row, and GnuPG's help texts in their 28 translations,
 * each entry and each file whole. None is degenerate, so every fail is a false alarm. The
 * development corpora hold few answers in these languages; this set is where a reading that
 * assumes English-like prose shows.
 */
export interface TranslatedText {
  /** 'ts' (one message), 'ts6' (six in a row), 'gpg' (one help entry), 'gpgall' (a help file whole). */
  source: 'ts' | 'ts6' | 'gpg' | 'gpgall';
  lang: string;
  name: string;
  text: string;
}

const GNUPG = '/usr/share/gnupg';

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
  return out;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
