/** A finding as JSON answers show it: no atToken when the text has no token positions (plain text, a sample-level finding), rather than -1. */
export function findingView<F extends { atToken: number }>(finding: F): F | Omit<F, 'atToken'> {
  if (finding.atToken >= 0) return finding;
  const { atToken: _none, ...rest } = finding;
  return rest;
}
