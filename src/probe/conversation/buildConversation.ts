import type { ChatMessage } from '../../config/types.js';
import type { RecallPosition, RecallSettings } from '../../config/probeKindTypes.js';
import { createHealthyText } from '../../prose/healthyText.js';
import { createRng, hashSeed, intBetween, pick, type Rng } from '../../prose/random.js';
import { tokenize } from '../../prose/tokenize.js';
import { ACKNOWLEDGEMENTS, FACT_SUBJECTS, FILLER_ASKS, FILLER_TOPICS, accountNumber, codeWord, personName } from './words.js';

/** One fact planted in a recall conversation. */
export interface PlantedFact {
  /** How the final question names it: "the code word for the Lisbon warehouse". */
  label: string;
  /** What the answer must contain: "COBALT-HERON-4821". */
  value: string;
  position: RecallPosition;
  /** Index of the user message that states it. */
  message: number;
}

export interface Conversation {
  messages: ChatMessage[];
  facts: PlantedFact[];
  /** Estimated prompt tokens (prose/tokenize.ts, plus a few per message as chat templates add). */
  tokens: number;
}

/** What a chat template adds around the text: the same estimate the simulator reports as prompt_tokens. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + 4 + tokenize(m.content).length, 3);
}

const SYSTEM = 'You are a helpful assistant. Answer clearly and keep track of everything the user tells you.';

/** Where in the filler (0-1) each position plants its facts. */
const POSITION_AT: Record<RecallPosition, number> = { start: 0.03, middle: 0.5, end: 0.97 };

/**
 * A long multi-turn conversation, the same for the same settings: filler exchanges (questions
 * about everyday engineering topics, answered with the simulator's prose) up to
 * `conversationTokens`, facts stated by the user at the chosen positions, and a last user turn
 * that asks for every fact by its label.
 */
export function buildConversation(settings: Pick<RecallSettings, 'conversationTokens' | 'facts' | 'positions' | 'seed'>): Conversation {
  const rng = createRng(hashSeed('recall', settings.seed));
  const facts = makeFacts(rng, settings.facts, settings.positions);
  const factTurns = facts.map((f) => [
    { role: 'user' as const, content: `Please keep this in mind for later: ${f.label} is ${f.value}.` },
    { role: 'assistant' as const, content: pick(rng, ACKNOWLEDGEMENTS) },
  ]);
  const question: ChatMessage = {
    role: 'user',
    content:
      `Earlier in this conversation I asked you to remember ${facts.length === 1 ? 'one detail' : `${facts.length} details`}. ` +
      `Please list ${facts.length === 1 ? 'it' : 'them'} now, one per line, each with its exact value: ` +
      `${facts.map((f) => f.label).join('; ')}. Answer only from what I told you.`,
  };
  const fixed = [{ role: 'system' as const, content: SYSTEM }, ...factTurns.flat(), question];
  let tokens = estimateTokens(fixed);

  const prose = createHealthyText(hashSeed('recall-filler', settings.seed), { plain: true });
  const filler: ChatMessage[][] = [];
  while (tokens < settings.conversationTokens) {
    const ask = pick(rng, FILLER_ASKS).replace('{topic}', pick(rng, FILLER_TOPICS));
    const paragraphs = intBetween(rng, 1, 3);
    const answer = Array.from({ length: paragraphs }, () => prose.paragraph()).join('\n\n');
    const pair = [
      { role: 'user' as const, content: ask },
      { role: 'assistant' as const, content: answer },
    ];
    filler.push(pair);
    tokens += estimateTokens(pair) - 3;
  }

  // Facts of one position go into consecutive gaps between filler exchanges.
  const slots = new Map<number, number[]>();
  facts.forEach((f, i) => {
    const gap = Math.round(POSITION_AT[f.position] * filler.length);
    slots.set(gap, [...(slots.get(gap) ?? []), i]);
  });
  const messages: ChatMessage[] = [fixed[0] as ChatMessage];
  for (let gap = 0; gap <= filler.length; gap++) {
    for (const i of slots.get(gap) ?? []) {
      (facts[i] as PlantedFact).message = messages.length;
      messages.push(...(factTurns[i] as ChatMessage[]));
    }
    if (gap < filler.length) messages.push(...(filler[gap] as ChatMessage[]));
  }
  messages.push(question);
  return { messages, facts, tokens: estimateTokens(messages) };
}

function makeFacts(rng: Rng, count: number, positions: readonly RecallPosition[]): PlantedFact[] {
  const subjects = [...FACT_SUBJECTS];
  const values = new Set<string>();
  const facts: PlantedFact[] = [];
  for (let i = 0; i < count; i++) {
    const subject = subjects.splice(Math.floor(rng() * subjects.length), 1)[0] as string;
    const kind = i % 3;
    let value: string;
    do value = kind === 0 ? codeWord(rng) : kind === 1 ? personName(rng) : accountNumber(rng);
    while (values.has(value));
    values.add(value);
    const label =
      kind === 0
        ? `the code word for the ${subject}`
        : kind === 1
          ? `the name of our contact at the ${subject}`
          : `the account number of the ${subject}`;
    facts.push({ label, value, position: positions[i % positions.length] as RecallPosition, message: -1 });
  }
  return facts;
}
