import { lastUserText } from '../messageTexts.js';
import { tokenize } from '../../prose/tokenize.js';
import { textSource, type TokenSource } from '../tokenSource.js';
import { generation, type ScenarioDefinition } from './types.js';

/**
 * Scenarios for the recall and contamination probes: answers made from the request's own
 * messages (a model that remembers, one that forgets) or from another request's (a server
 * that leaks context between requests).
 */

/** The text once, as tokens, then a natural end. */
function once(text: string): TokenSource {
  let given = false;
  return textSource(() => {
    if (given) return null;
    given = true;
    return text;
  });
}

/** Tokens of context a forgetting model keeps when the model name gives no `@N`. */
export const DEFAULT_CONTEXT_TOKENS = 4096;

export const contextScenarios: ScenarioDefinition[] = [
  {
    name: 'echo-all',
    description: 'remembers everything: answers with the text of every message it was sent (ignores max_tokens)',
    param: null,
    run: ({ messages }) => generation(once(messages.map((m) => m.content).join('\n\n')), null),
  },
  {
    name: 'echo-last',
    description: 'forgets the conversation: answers with only the last user message (each request its own)',
    param: null,
    run: ({ messages }) => generation(once(lastUserText(messages)), null),
  },
  {
    name: 'forget-after',
    description: 'a short context: answers with the messages of the last N tokens only (earlier ones are forgotten)',
    param: `tokens kept (default ${DEFAULT_CONTEXT_TOKENS})`,
    run: ({ messages, param }) => {
      const keep = param ?? DEFAULT_CONTEXT_TOKENS;
      const kept: string[] = [];
      let tokens = 0;
      for (let i = messages.length - 1; i >= 0; i--) {
        const content = messages[i]?.content ?? '';
        tokens += tokenize(content).length;
        if (tokens > keep && kept.length > 0) break;
        kept.unshift(content);
      }
      return generation(once(kept.join('\n\n')), null);
    },
  },
  {
    name: 'echo-previous',
    description: "leaks between requests: answers with the previous request's last user message (the first gets its own)",
    param: null,
    run: ({ messages, previousLastUser }) => generation(once(previousLastUser ?? lastUserText(messages)), null),
  },
];
