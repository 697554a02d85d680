/** The replacement of a credential in anything kept or shown. */
export const REDACTED = '[redacted]';

/** `text` with every secret replaced by "[redacted]"; give the secrets longest first (secretsOf does), so none leaves its suffix. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s !== '' && out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}
