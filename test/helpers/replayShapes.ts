/**
 * Texts written for issue 36's long outputs that replay themselves with edits, and their
 * healthy counterparts. Our own text (the healthy generator's prose), never corpus text.
 */
import { healthyProse } from './texts.js';

/** Words swapped into a replayed sentence, one per sentence. */
const SWAPS = ['quiet', 'distant', 'golden', 'narrow', 'bright', 'silent', 'heavy', 'gentle'];

/** Sentences of healthy prose (the generator's), in order; its semicolons made commas and its sentences with code marks left out, so that it reads as words (code punctuation under 1%). */
function sentences(words: number, seed: number): string[] {
  return healthyProse(words, seed)
    .replace(/\s+/g, ' ')
    .replace(/;/g, ',')
    .split(/(?<=[.!?])\s+/)
    .filter((s) => s.split(' ').length >= 6 && !/[`()[\]{}<>=|]/.test(s));
}

/** Sentence `s` with one word (the one at the middle) changed. */
function edited(s: string, k: number): string {
  const words = s.split(' ');
  words[Math.floor(words.length / 2)] = SWAPS[k % SWAPS.length]!;
  return words.join(' ');
}

/** Paragraphs of five sentences each. */
function paragraphs(ss: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < ss.length; i += 5) out.push(ss.slice(i, i + 5).join(' '));
  return out.join('\n\n');
}

/**
 * A story of about `chars` chars whose last `share` replays earlier scenes (runs of sentences
 * taken from its first part, out of order) with one word changed per sentence.
 */
export function replayedStory(chars = 16_384, share = 0.4, seed = 3): string {
  const all = sentences(Math.ceil(chars / 4), seed);
  const fresh: string[] = [];
  let length = 0;
  for (const s of all) {
    if (length >= chars * (1 - share)) break;
    fresh.push(s);
    length += s.length + 1;
  }
  const replay: string[] = [];
  // scenes of eight sentences, taken from the first part in a shuffled order
  let scene = 0;
  while (length < chars) {
    const from = (scene * 37) % Math.max(1, fresh.length - 8);
    for (let k = 0; k < 8 && length < chars; k++) {
      const s = edited(fresh[from + k]!, replay.length);
      replay.push(s);
      length += s.length + 1;
    }
    scene++;
  }
  return `${paragraphs(fresh)}\n\n${paragraphs(replay)}`;
}

/** A story of about `chars` chars whose paragraphs each end with the same refrain (healthy). */
export function longStoryWithRefrain(chars = 16_384, seed = 5): string {
  const refrain = 'And the wind kept singing over the hills, the way it always had.';
  const ss = sentences(Math.ceil(chars / 5), seed);
  const out: string[] = [];
  let length = 0;
  for (let i = 0; i < ss.length && length < chars; i += 4) {
    const p = `${ss.slice(i, i + 4).join(' ')}\n${refrain}`;
    out.push(p);
    length += p.length + 2;
  }
  return out.join('\n\n');
}

/** A long answer of about `chars` chars: sections under the same headings, each with prose and (when `code`) a code block in one shape (healthy). */
export function longAnswerWithHeadings(chars = 16_384, seed = 7, code = true): string {
  const ss = sentences(Math.ceil(chars / 5), seed);
  const services = [
    'billing',
    'search',
    'inventory',
    'payments',
    'accounts',
    'reports',
    'mailer',
    'gateway',
    'auth',
    'catalog',
    'orders',
    'uploads',
  ];
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const name = services[i % services.length]!;
    const prose = ss.slice(i * 4, i * 4 + 4).join(' ');
    const section = [
      `## Step ${i + 1}: Configure the ${name} service`,
      '### What it does',
      prose,
      '### Configuration',
      code
        ? `\`\`\`yaml\nservice:\n  name: ${name}\n  replicas: ${(i % 3) + 2}\n  port: ${8000 + i}\n  healthcheck:\n    path: /healthz\n    interval: 10s\n\`\`\``
        : `Set the ${name} service to run ${(i % 3) + 2} replicas on port ${8000 + i}, with its health check every ten seconds.`,
      '### Check it',
      `Run the check below and make sure the ${name} service answers before you go on.`,
    ].join('\n\n');
    out.push(section);
    length += section.length + 2;
  }
  return out.join('\n\n');
}
