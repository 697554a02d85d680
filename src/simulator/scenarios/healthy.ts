import { createHealthyText } from '../../prose/healthyText.js';
import { concatSources, takeSource, textSource, type TokenSource } from '../tokenSource.js';
import { generation, type ScenarioDefinition } from './types.js';

/** Endless healthy prose for a request's seed; `reasoning` tokens go out as reasoning_content. */
export function healthySource(seed: number, reasoning = false): TokenSource {
  const text = createHealthyText(seed, { plain: reasoning });
  return textSource(() => text.nextBlock(), reasoning);
}

// A separate stream of thought, so reasoning and answer do not share sentences.
const REASONING_SEED_SALT = 0x9e3779b9;

export const healthyScenarios: ScenarioDefinition[] = [
  {
    name: 'healthy',
    description: 'long varied technical prose until max_tokens (finish_reason "length")',
    param: null,
    run: ({ seed, maxTokens }) => generation(healthySource(seed), maxTokens),
  },
  {
    name: 'short',
    description: 'a healthy answer that ends early with finish_reason "stop" (default 50 tokens)',
    param: 'tokens before the natural end',
    run: ({ seed, maxTokens, param }) => generation(takeSource(healthySource(seed), param ?? 50), maxTokens),
  },
  {
    name: 'reasoning',
    description: 'reasoning_content deltas first (like vLLM/DeepSeek reasoning parsers), then healthy content',
    param: 'reasoning tokens (default min(200, 25% of max_tokens))',
    run: ({ seed, maxTokens, param }) => {
      const thinking = param ?? Math.min(200, Math.floor(maxTokens / 4));
      const source = concatSources(takeSource(healthySource((seed ^ REASONING_SEED_SALT) >>> 0, true), thinking), healthySource(seed));
      return generation(source, maxTokens);
    },
  },
];
