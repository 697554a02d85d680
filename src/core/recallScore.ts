/** Letters and digits only, lower case: "Cobalt heron, 4821!" and "COBALT-HERON-4821" compare equal. */
export function compactText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** True when the answer states the value exactly, whatever its case, punctuation and spacing. */
export function mentions(answer: string, value: string): boolean {
  const v = compactText(value);
  return v.length > 0 && compactText(answer).includes(v);
}

/**
 * A planted fact. The position is a type parameter (the config's RecallPosition in the probe)
 * so that the core names nothing of the config.
 */
export interface RecallFact<P extends string = string> {
  label: string;
  value: string;
  position: P;
}

export interface RecallScore<P extends string = string> {
  facts: number;
  recalled: number;
  /** recalled / facts, 0-1 (higher is better). */
  ratio: number;
  verdict: 'ok' | 'warn' | 'fail';
  /** Planted and recalled facts per position that has any. */
  byPosition: Partial<Record<P, { planted: number; recalled: number }>>;
  /** The facts the answer lacks, with where they were planted. */
  missed: RecallFact<P>[];
}

/** Scores an answer against the planted facts: ok when all are there, fail under minRecall, warn between. Pure. */
export function scoreRecall<P extends string>(answer: string, facts: readonly RecallFact<P>[], minRecall: number): RecallScore<P> {
  const byPosition: RecallScore<P>['byPosition'] = {};
  const missed: RecallFact<P>[] = [];
  for (const f of facts) {
    const slot = byPosition[f.position] ?? { planted: 0, recalled: 0 };
    byPosition[f.position] = slot;
    slot.planted++;
    if (mentions(answer, f.value)) slot.recalled++;
    else missed.push({ label: f.label, value: f.value, position: f.position });
  }
  const recalled = facts.length - missed.length;
  const ratio = facts.length === 0 ? 1 : recalled / facts.length;
  const verdict = missed.length === 0 ? 'ok' : ratio < minRecall ? 'fail' : 'warn';
  return { facts: facts.length, recalled, ratio, verdict, byPosition, missed };
}
