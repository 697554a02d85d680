/**
 * Looking for secrets where they must not be: the canary tests (test/integration/secretCanary,
 * secretsUnion) and the fault bench's secrets cases read every output for any 8-character piece
 * of a secret, in any case, since a server may echo a key cut, lower-cased or upper-cased.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The 8-character pieces of the secrets (lower-cased) that `text` holds, in any case. */
export function secretPieces(secrets: readonly string[], text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const secret of secrets)
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8).toLowerCase();
      if (lower.includes(piece)) found.push(piece);
    }
  return found;
}

/** Fails, showing the text around the first piece found, when `text` holds a piece of a secret. */
export function assertNoSecret(where: string, text: string, secrets: readonly string[], what: string): void {
  const found = secretPieces(secrets, text);
  if (found.length === 0) return;
  const at = text.toLowerCase().indexOf(found[0] as string);
  assert.fail(`${where} gives out ${what} (${found.length} pieces, e.g. "${found[0]}"): …${text.slice(Math.max(0, at - 120), at + 80)}…`);
}

/** How an echoing upstream's answer n says a secret: whole, lower-cased, upper-cased, a 20-character prefix (n % 4). */
export function echoVariant(secret: string, n: number): string {
  return [secret, secret.toLowerCase(), secret.toUpperCase(), secret.slice(0, 20)][n % 4] as string;
}

/** Every file under `dir`, as text (latin1: a byte is a char, so no piece is hidden by decoding). */
export function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push([path, readFileSync(path, 'latin1')]);
  }
  return out;
}
