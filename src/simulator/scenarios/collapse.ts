import { createHealthyText } from '../../prose/healthyText.js';
import { createRng, pick } from '../../prose/random.js';
import { tokenize } from '../../prose/tokenize.js';
import { concatSources, cycleSource, lockedIn, takeSource, type TokenSource } from '../tokenSource.js';
import { healthySource } from './healthy.js';
import { generation, type ScenarioContext, type ScenarioDefinition } from './types.js';

/** Where the loop starts when the model name gives no `@N`: part-way, like a real collapse. */
export const DEFAULT_ONSET_SHARE = 0.4;

// The loop unit comes from its own generator, so the healthy prefix is token for token
// the text the `healthy` scenario sends for the same request.
const LOOP_SEED_SALT = 0x85ebca6b;

function onset({ param, maxTokens }: ScenarioContext): number {
  return param ?? Math.floor(maxTokens * DEFAULT_ONSET_SHARE);
}

/** Healthy text for `onset` tokens, then `loop` forever (max_tokens ends it with "length"). */
function collapseInto(context: ScenarioContext, loop: TokenSource): ReturnType<typeof generation> {
  return generation(concatSources(takeSource(healthySource(context.seed), onset(context)), loop), context.maxTokens);
}

/** A loop, sent with logprobs near 0 when they are asked for: a collapsed model is sure of every token. */
function loopText(text: string): TokenSource {
  return lockedIn(cycleSource(tokenize(text)));
}

const WHITESPACE_TOKENS = ['\n', '\n\n', ' ', '  ', '\t', '\n \n', '    ', '\n\n\n'];

/** Random whitespace pieces: output that is "there" but empty, as broken kernels produce. */
function whitespaceSource(seed: number): TokenSource {
  const rng = createRng(seed);
  return { next: () => ({ text: pick(rng, WHITESPACE_TOKENS), reasoning: false }) };
}

const ONSET_PARAM = 'token where the collapse starts (default 40% of max_tokens)';

export const collapseScenarios: ScenarioDefinition[] = [
  {
    name: 'collapse-sentence',
    description: 'healthy prose, then one sentence repeated until max_tokens',
    param: ONSET_PARAM,
    run: (context) => {
      const sentence = createHealthyText((context.seed ^ LOOP_SEED_SALT) >>> 0).sentence();
      return collapseInto(context, loopText(` ${sentence}`));
    },
  },
  {
    name: 'collapse-word',
    description: 'healthy prose, then "the the the ..."',
    param: ONSET_PARAM,
    run: (context) => collapseInto(context, loopText(' the')),
  },
  {
    name: 'collapse-paragraph',
    description: 'healthy prose, then one paragraph repeated until max_tokens',
    param: ONSET_PARAM,
    run: (context) => {
      const paragraph = createHealthyText((context.seed ^ LOOP_SEED_SALT) >>> 0).paragraph();
      return collapseInto(context, loopText(`\n\n${paragraph}`));
    },
  },
  {
    name: 'collapse-tags',
    description: 'healthy prose, then a "</div></div></div>..." flood',
    param: ONSET_PARAM,
    run: (context) => collapseInto(context, loopText('</div>')),
  },
  {
    name: 'collapse-punct',
    description: 'healthy prose, then "!!!!!!!!..."',
    param: ONSET_PARAM,
    run: (context) => collapseInto(context, loopText('!!!!')),
  },
  {
    name: 'collapse-greedy',
    description:
      'at temperature 0 (greedy) healthy prose then one sentence repeated; at any other temperature healthy prose: a sweep tells them apart',
    param: ONSET_PARAM,
    run: (context) => {
      if (context.temperature !== 0) return generation(healthySource(context.seed), context.maxTokens);
      const sentence = createHealthyText((context.seed ^ LOOP_SEED_SALT) >>> 0).sentence();
      return collapseInto(context, loopText(` ${sentence}`));
    },
  },
  {
    name: 'off-prompt',
    description:
      'fluent healthy text that answers another prompt: the README of an app nobody asked about (fails a probe with expect.keywords)',
    param: null,
    run: (context) => {
      const readme = `# Petal\n\nPetal reminds you to water your houseplants. It learns how thirsty each plant is from the photos you take and the weather outside.\n\n## Install\n\nDownload Petal from the app store, allow notifications, then photograph your first plant.\n\n`;
      return generation(concatSources(textSourceOnce(readme), healthySource(context.seed)), context.maxTokens);
    },
  },
  {
    name: 'whitespace',
    description: 'whitespace and newlines only (after N healthy tokens, default 0) until max_tokens',
    param: 'healthy tokens before the whitespace (default 0)',
    run: (context) => {
      const healthyTokens = context.param ?? 0;
      const source = concatSources(takeSource(healthySource(context.seed), healthyTokens), whitespaceSource(context.seed));
      return generation(source, context.maxTokens);
    },
  },
];

/** The tokens of one text, once. */
function textSourceOnce(text: string): TokenSource {
  const tokens = tokenize(text);
  let i = 0;
  return { next: () => (i < tokens.length ? { text: tokens[i++] as string, reasoning: false } : null) };
}
