/** A TCP port as typed on the command line: digits only, 0 to 65535; null otherwise. */
export function parsePort(s: string): number | null {
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n <= 65535 ? n : null;
}
