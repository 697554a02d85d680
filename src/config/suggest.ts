/** "Did you mean ...?" for unknown keys: baseURL → baseUrl, max_tokens → maxTokens, apiKey → apiKeyEnv. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const wanted = squash(key);
  if (wanted === '') return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const c = squash(candidate);
    if (c === wanted) return candidate;
    if (wanted.length >= 4 && (c.startsWith(wanted) || wanted.startsWith(c)) && c.length >= 4) {
      if (1 < bestDistance) {
        best = candidate;
        bestDistance = 1;
      }
      continue;
    }
    const d = editDistance(wanted, c);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = wanted.length <= 4 ? 1 : 2;
  return bestDistance <= allowed ? best : undefined;
}

/** Case, '_' and '-' do not matter when comparing key names. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[-_\s]/g, '');
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
