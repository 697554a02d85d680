import { chance, createRng, intBetween, pick, type Rng } from './random.js';
import {
  ADJECTIVES,
  ADVERBIALS,
  KEY_SUFFIXES,
  LANGUAGES,
  METRICS,
  NOUNS,
  PEOPLE,
  PLACES,
  SENTENCE_OPENERS,
  SIZE_UNITS,
  TIME_UNITS,
  TRENDS,
  VERB_FORMS,
  VERBS,
} from './vocabulary.js';

/**
 * An endless, deterministic supply of plausible technical prose: the text a
 * healthy model produces for "write a long article". It must look healthy to a
 * repetition detector, so sentences come from a small grammar with many slots
 * rather than a fixed list, and every sentence or line of 20+ characters is
 * checked against the recent ones so none recurs verbatim within ~4,000 units.
 */
export interface HealthyText {
  /** The next markdown block (paragraph, heading, list, table or code block), ending in a blank line. */
  nextBlock(): string;
  /** A fresh sentence, not recently produced. */
  sentence(): string;
  /** A fresh paragraph of 2–7 sentences, without trailing newlines. */
  paragraph(): string;
}

const RECENT_LIMIT = 4000;
const UNIQUE_MIN_LENGTH = 20;

export interface HealthyTextOptions {
  /** Paragraphs only, no headings, lists, tables or code: how reasoning traces read. */
  plain?: boolean;
}

export function createHealthyText(seed: number, options: HealthyTextOptions = {}): HealthyText {
  const rng = createRng(seed);
  const recent = new RecentSet(RECENT_LIMIT);
  const words = new Phrases(rng);
  const sentences = buildTemplates(words, rng);
  let sinceHeading = 0;
  let blocks = 0;

  /** Retries a generator until its output is new; a handful of tries suffices with this many slots. */
  function fresh(make: () => string): string {
    let text = make();
    for (let attempt = 0; attempt < 30 && text.length >= UNIQUE_MIN_LENGTH && recent.has(text); attempt++) {
      text = make();
    }
    if (text.length >= UNIQUE_MIN_LENGTH) recent.add(text);
    return text;
  }

  function sentence(): string {
    return fresh(() => pick(rng, sentences)());
  }

  function paragraph(): string {
    const count = intBetween(rng, 2, 7);
    const parts: string[] = [];
    for (let i = 0; i < count; i++) parts.push(sentence());
    return parts.join(' ');
  }

  function heading(): string {
    const level = chance(rng, 0.3) ? '###' : '##';
    const title = fresh(() =>
      pick(rng, [
        () => capitalize(words.nounPhraseBare()),
        () => `${capitalize(words.gerund())} ${words.pluralNoun()} ${pick(rng, ADVERBIALS)}`,
        () => `Why ${words.pluralNoun()} ${words.verb()} ${words.pluralNoun()}`,
        () => `${capitalize(words.adjective())} ${words.pluralNoun()} and ${words.pluralNoun()}`,
        () => `Step ${intBetween(rng, 1, 12)}: ${words.verb()} the ${words.noun()}`,
      ])(),
    );
    return `${level} ${title}`;
  }

  function list(): string {
    const numbered = chance(rng, 0.35);
    const count = intBetween(rng, 3, 6);
    const intro = fresh(() => `${capitalize(words.subjectPlural())} to ${words.verb()} ${pick(rng, ADVERBIALS)}:`);
    const items: string[] = [intro, ''];
    for (let i = 0; i < count; i++) {
      const item = fresh(() =>
        pick(rng, [
          () => `${capitalize(words.objectPhrase())}, ${pick(rng, ADVERBIALS)}`,
          () => `${capitalize(words.gerund())} ${words.objectPhrase()} before ${words.subject()} ${words.verb3()} ${words.objectPhrase()}`,
          () => `the ${words.noun()} (${words.number()} ${pick(rng, SIZE_UNITS)} at most)`,
          () => `${capitalize(words.metric())} ${words.trend()} when ${words.objectPhrase()} is ${words.adjective()}`,
          () => `\`${words.identifier()}\`: ${words.verb3()} ${words.objectPhrase()}`,
        ])(),
      );
      items.push(`${numbered ? `${i + 1}.` : '-'} ${item}`);
    }
    return items.join('\n');
  }

  function table(): string {
    const rows = intBetween(rng, 3, 5);
    const metric = words.metric();
    const header = `| ${capitalize(words.noun())} | ${capitalize(metric)} | Notes |`;
    const lines = [header, '|---|---|---|'];
    for (let i = 0; i < rows; i++) {
      lines.push(
        fresh(
          () =>
            `| ${words.adjective()} ${words.noun()} | ${words.decimal()} ${pick(rng, TIME_UNITS)} | ${words.adjective()}, ${pick(rng, ADVERBIALS)} |`,
        ),
      );
    }
    return lines.join('\n');
  }

  function code(): string {
    const language = pick(rng, LANGUAGES);
    const count = intBetween(rng, 3, 8);
    const lines = [`\`\`\`${language}`];
    for (let i = 0; i < count; i++) lines.push(fresh(() => codeLine(language, words, rng, i)));
    lines.push('```');
    return lines.join('\n');
  }

  function nextBlock(): string {
    if (options.plain) return `${paragraph()}\n\n`;
    blocks++;
    sinceHeading++;
    const roll = rng();
    let block: string;
    if (blocks === 1 || (sinceHeading > 3 && roll < 0.12) || sinceHeading > 9) {
      block = heading();
      sinceHeading = 0;
    } else if (roll < 0.72) {
      block = paragraph();
    } else if (roll < 0.84) {
      block = list();
    } else if (roll < 0.92) {
      block = code();
    } else {
      block = table();
    }
    return `${block}\n\n`;
  }

  return { nextBlock, sentence, paragraph };
}

/** Slot fillers: the noun phrases, verbs, numbers and identifiers the templates use. */
class Phrases {
  constructor(private readonly rng: Rng) {}

  noun(): string {
    return singular(pick(this.rng, NOUNS));
  }

  pluralNoun(): string {
    return plural(pick(this.rng, NOUNS));
  }

  adjective(): string {
    return pick(this.rng, ADJECTIVES);
  }

  verb(): string {
    return pick(this.rng, VERBS);
  }

  verb3(): string {
    return verbForms(this.verb())[0];
  }

  participle(): string {
    return verbForms(this.verb())[1];
  }

  gerund(): string {
    return verbForms(this.verb())[2];
  }

  metric(): string {
    return pick(this.rng, METRICS);
  }

  trend(): string {
    if (chance(this.rng, 0.3)) {
      return `${pick(this.rng, ['improves', 'regresses', 'drops', 'grows'])} by ${intBetween(this.rng, 2, 85)}%`;
    }
    return pick(this.rng, TRENDS);
  }

  /** "the stale replica", "a lock-free ring buffer of the scheduler" */
  nounPhrase(): string {
    const rng = this.rng;
    const body = chance(rng, 0.55) ? `${this.adjective()} ${this.noun()}` : this.noun();
    const determiner = pick(rng, ['the', 'the', 'the', 'a', 'each', 'every', 'this', 'our', 'that', 'one']);
    let phrase = determiner === 'a' ? withArticle(body) : `${determiner} ${body}`;
    if (chance(rng, 0.25)) phrase += ` ${pick(rng, ['of', 'in', 'behind', 'for', 'inside', 'next to'])} the ${this.noun()}`;
    return phrase;
  }

  nounPhraseBare(): string {
    return chance(this.rng, 0.6) ? `${this.adjective()} ${this.pluralNoun()}` : `the ${this.noun()} and its ${this.pluralNoun()}`;
  }

  pluralPhrase(): string {
    const rng = this.rng;
    const body = chance(rng, 0.5) ? `${this.adjective()} ${this.pluralNoun()}` : this.pluralNoun();
    return `${pick(rng, ['', 'the ', 'most ', 'some ', 'all ', 'the remaining ', 'a few ', 'both '])}${body}`;
  }

  objectPhrase(): string {
    return chance(this.rng, 0.65) ? this.nounPhrase() : this.pluralPhrase();
  }

  /** A singular subject, for third-person verbs. */
  subject(): string {
    if (chance(this.rng, 0.15)) {
      const singularPeople = PEOPLE.filter(([, isPlural]) => !isPlural);
      return pick(this.rng, singularPeople)[0];
    }
    return this.nounPhrase();
  }

  /** A plural subject, for base-form verbs. */
  subjectPlural(): string {
    if (chance(this.rng, 0.3)) {
      const pluralPeople = PEOPLE.filter(([, isPlural]) => isPlural);
      return pick(this.rng, pluralPeople)[0];
    }
    return this.pluralPhrase();
  }

  adverbial(): string {
    const rng = this.rng;
    if (chance(rng, 0.25)) {
      return pick(rng, [
        () => `within ${this.number()} ${pick(rng, TIME_UNITS)}`,
        () => `every ${this.number()} seconds`,
        () => `once the queue passes ${this.number()} entries`,
        () => `beyond ${this.number()} concurrent streams`,
        () => `at about ${this.number()} requests per second`,
        () => `for roughly ${intBetween(rng, 2, 90)} minutes`,
      ])();
    }
    return pick(rng, ADVERBIALS);
  }

  number(): string {
    const rng = this.rng;
    const magnitude = pick(rng, [10, 100, 1000, 10000, 100000]);
    return String(intBetween(rng, 2, magnitude));
  }

  decimal(): string {
    return (this.rng() * pick(this.rng, [1, 10, 100, 1000])).toFixed(intBetween(this.rng, 1, 2));
  }

  version(): string {
    return `${intBetween(this.rng, 0, 4)}.${intBetween(this.rng, 0, 30)}.${intBetween(this.rng, 0, 12)}`;
  }

  /** camelCase name built from the vocabulary, e.g. `staleShardCountLimit`. */
  identifier(): string {
    const rng = this.rng;
    const parts = [...(chance(rng, 0.4) ? [this.adjective()] : []), this.noun()];
    const words = parts
      .join(' ')
      .split(/[\s-]+/)
      .filter((w) => /^[a-zA-Z]+$/.test(w));
    const head = words.map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w.toLowerCase()))).join('');
    return `${head || 'value'}${chance(rng, 0.6) ? pick(rng, KEY_SUFFIXES) : ''}`;
  }

  snake(): string {
    return this.identifier()
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase();
  }
}

type Template = () => string;

function buildTemplates(p: Phrases, rng: Rng): Template[] {
  const cap = capitalize;
  const adv = () => p.adverbial();
  return [
    () => `${cap(p.subject())} ${p.verb3()} ${p.objectPhrase()} ${adv()}.`,
    () => `When ${p.subject()} ${p.verb3()} ${p.objectPhrase()}, ${p.subject()} ${p.verb3()} ${p.objectPhrase()} ${adv()}.`,
    () => `If ${p.nounPhrase()} is ${p.adjective()}, ${p.subjectPlural()} ${p.verb()} ${p.objectPhrase()} instead.`,
    () =>
      `In our tests with ${p.number()} ${p.pluralNoun()}, ${p.metric()} ${p.trend()} once ${p.subject()} ${p.verb3()} ${p.objectPhrase()}.`,
    () =>
      `${cap(p.subjectPlural())} usually ${p.verb()} ${p.objectPhrase()} ${adv()}, which keeps ${p.metric()} ${pick(rng, ['low', 'stable', 'predictable', 'within budget', 'bounded'])}.`,
    () => `The ${p.noun()} is ${p.participle()} ${adv()}, so ${p.nounPhrase()} never has to ${p.verb()} ${p.objectPhrase()}.`,
    () => `Because ${p.nounPhrase()} is ${p.adjective()} ${adv()}, ${p.metric()} ${p.trend()}.`,
    () =>
      `${cap(withArticle(`${p.adjective()} ${p.noun()}`))} ${p.verb3()} ${p.objectPhrase()} only when ${p.subject()} ${p.verb3()} ${p.objectPhrase()}.`,
    () => `Keep ${p.nounPhrase()} ${p.adjective()}; otherwise ${p.subjectPlural()} ${p.verb()} ${p.objectPhrase()} ${adv()}.`,
    () =>
      `We measured ${p.metric()} at ${p.decimal()} ${pick(rng, TIME_UNITS)} with ${p.nounPhrase()} ${p.participle()} and ${p.decimal()} ${pick(rng, TIME_UNITS)} without it.`,
    () =>
      `${cap(p.gerund())} ${p.objectPhrase()} ${adv()} costs about ${intBetween(rng, 1, 40)}% of ${p.metric()}, which is acceptable for ${p.pluralPhrase()}.`,
    () =>
      `Note that ${p.nounPhrase()} does not ${p.verb()} ${p.objectPhrase()} until ${p.subject()} has ${p.participle()} ${p.objectPhrase()}.`,
    () => `The simplest fix is to ${p.verb()} ${p.objectPhrase()} ${adv()} and to ${p.verb()} ${p.objectPhrase()} ${adv()}.`,
    () => `Most regressions we saw came from ${p.pluralPhrase()} that ${p.verb()} ${p.objectPhrase()} ${adv()}.`,
    () => `${cap(p.nounPhrase())} and ${p.nounPhrase()} both ${p.verb()} ${p.objectPhrase()}, but only one of them is ${p.adjective()}.`,
    () =>
      `After ${p.number()} ${pick(rng, TIME_UNITS)} ${adv()}, ${p.subject()} ${p.verb3()} ${p.objectPhrase()} and ${p.metric()} ${p.trend()}.`,
    () => `Why does ${p.subject()} ${p.verb()} ${p.objectPhrase()} ${adv()}?`,
    () => `The answer is that ${p.subjectPlural()} ${p.verb()} ${p.objectPhrase()} whenever ${p.nounPhrase()} is ${p.adjective()}.`,
    () => `Version ${p.version()} changed how ${p.subject()} ${p.verb3()} ${p.objectPhrase()}, and ${p.metric()} ${p.trend()} as a result.`,
    () => `Set \`${p.identifier()}\` to ${p.number()} if ${p.subjectPlural()} ${p.verb()} ${p.objectPhrase()} ${adv()}.`,
    () => `Without ${p.nounPhrase()}, ${p.subjectPlural()} would ${p.verb()} ${p.objectPhrase()} ${adv()}, and ${p.metric()} would suffer.`,
    () =>
      `${cap(pick(rng, PEOPLE)[0])} ${pick(rng, ['noticed', 'reported', 'confirmed', 'suspected', 'found', 'argued'])} that ${p.subject()} ${p.verb3()} ${p.objectPhrase()} ${adv()}.`,
    () => `It helps to think of ${p.nounPhrase()} as ${withArticle(`${p.adjective()} ${p.noun()}`)} that ${p.verb3()} ${p.objectPhrase()}.`,
    () =>
      `On ${pick(rng, PLACES)} with ${intBetween(rng, 2, 192)} cores and ${intBetween(rng, 4, 2048)} GiB of memory, ${p.subject()} ${p.verb3()} about ${p.number()} ${p.pluralNoun()} per second.`,
    () => `${pick(rng, SENTENCE_OPENERS)}, ${p.subject()} ${p.verb3()} ${p.objectPhrase()} ${adv()}.`,
    () => `The trade-off is simple: ${p.gerund()} ${p.objectPhrase()} saves ${p.metric()} but makes ${p.nounPhrase()} ${p.adjective()}.`,
    () =>
      `There are ${pick(rng, ['two', 'three', 'four', 'five'])} reasons ${p.subjectPlural()} ${p.verb()} ${p.objectPhrase()}, and the first is ${p.metric()}.`,
    () => `Each ${p.noun()} keeps its own ${p.noun()}, so ${p.subjectPlural()} can ${p.verb()} ${p.objectPhrase()} independently.`,
    () => `${cap(p.subject())} ${p.verb3()} ${p.objectPhrase()}; ${p.subject()}, in turn, ${p.verb3()} ${p.objectPhrase()}.`,
    () => `Do not ${p.verb()} ${p.objectPhrase()} ${adv()} unless ${p.nounPhrase()} is ${p.adjective()}.`,
    () =>
      `The ${p.noun()} ${p.verb3()} ${p.objectPhrase()} at most ${intBetween(rng, 2, 64)} times before it ${p.verb3()} ${p.objectPhrase()}.`,
    () =>
      `Compared with ${p.nounPhrase()}, ${p.subject()} ${p.verb3()} ${p.objectPhrase()} ${intBetween(rng, 3, 80)}% faster but uses ${p.number()} ${pick(rng, SIZE_UNITS)} more memory.`,
    () =>
      `Ticket ${pick(rng, ['#', 'OPS-', 'INFRA-', 'PERF-'])}${intBetween(rng, 100, 99999)} tracks the case where ${p.subject()} ${p.verb3()} ${p.objectPhrase()} ${adv()}.`,
    () => `Because ${p.metric()} matters more than ${p.metric()} here, we ${p.verb()} ${p.objectPhrase()} ${adv()}.`,
    () =>
      `${cap(p.pluralPhrase())} that ${p.verb()} ${p.objectPhrase()} tend to be ${p.adjective()}, while ${p.adjective()} ones rarely need to.`,
    () =>
      `A ${p.number()}-line patch that ${p.verb3()} ${p.objectPhrase()} ${adv()} cut ${p.metric()} from ${p.decimal()} to ${p.decimal()} ${pick(rng, TIME_UNITS)}.`,
    () => `Consider what happens when ${p.subject()} ${p.verb3()} ${p.objectPhrase()} while ${p.subject()} is ${p.adjective()}.`,
    () =>
      `The ${pick(rng, ['first', 'second', 'third', 'last'])} step is to ${p.verb()} ${p.objectPhrase()}, then ${p.verb()} ${p.objectPhrase()} ${adv()}.`,
    () => `${cap(p.metric())} ${p.trend()} if ${p.subjectPlural()} ${p.verb()} ${p.objectPhrase()} ${adv()}, so measure before and after.`,
    () => `Nothing in ${p.nounPhrase()} assumes that ${p.subject()} ${p.verb3()} ${p.objectPhrase()} in order.`,
    () => `With \`${p.snake()} = ${p.number()}\` the ${p.noun()} ${p.verb3()} ${p.objectPhrase()} ${adv()}.`,
  ];
}

function codeLine(language: string, p: Phrases, rng: Rng, line: number): string {
  const id = () => p.identifier();
  const num = () => p.number();
  switch (language) {
    case 'yaml':
      return line === 0
        ? `${id()}:`
        : `  ${id()}: ${pick(rng, [num, () => String(chance(rng, 0.5)), () => `"${p.adjective()}"`, () => p.decimal()])()}`;
    case 'ts':
      return pick(rng, [
        () =>
          `const ${id()} = ${pick(rng, ['create', 'build', 'load', 'parse'])}${capitalize(id())}({ ${id()}: ${num()}, ${id()}: ${num()} });`,
        () => `await ${id()}.${p.verb()}${capitalize(id())}(${id()}, { timeoutMs: ${num()} });`,
        () => `if (${id()} > ${num()}) ${p.verb()}(${id()}, ${p.decimal()});`,
        () => `export function ${p.verb()}${capitalize(id())}(${id()}: number): boolean {`,
        () => `  return ${id()}.length < ${num()} && !${id()}.has(${id()});`,
      ])();
    case 'python':
      return pick(rng, [
        () => `${p.snake()} = ${p.verb()}_${p.snake()}(${p.snake()}, limit=${num()})`,
        () => `for ${p.snake()} in ${p.snake()}[:${num()}]:`,
        () => `    ${p.snake()}.${p.verb()}(${p.snake()}, timeout=${p.decimal()})`,
        () => `assert ${p.snake()} <= ${num()}, "${p.adjective()} ${p.noun()}"`,
      ])();
    case 'bash':
      return pick(rng, [
        () => `kubectl -n ${p.snake().replace(/_/g, '-')} rollout restart deployment/${p.snake().replace(/_/g, '-')}`,
        () => `curl -s localhost:${intBetween(rng, 1024, 65000)}/metrics | grep ${p.snake()}`,
        () => `export ${p.snake().toUpperCase()}=${num()}`,
        () => `./bench --${p.snake().replace(/_/g, '-')}=${num()} --duration=${intBetween(rng, 5, 600)}s`,
      ])();
    case 'sql':
      return pick(rng, [
        () => `SELECT ${p.snake()}, count(*) FROM ${p.snake()} WHERE ${p.snake()} > ${num()} GROUP BY 1;`,
        () => `CREATE INDEX ${p.snake()}_idx ON ${p.snake()} (${p.snake()}, ${p.snake()});`,
        () => `UPDATE ${p.snake()} SET ${p.snake()} = ${num()} WHERE ${p.snake()} IS NULL;`,
      ])();
    default:
      return pick(rng, [
        () => `${id()} := ${p.verb()}${capitalize(id())}(ctx, ${num()})`,
        () => `if err := ${id()}.${capitalize(p.verb())}(ctx); err != nil {`,
        () => `    return fmt.Errorf("${p.verb()} ${p.noun()}: %w", err)`,
        () => `for i := 0; i < ${num()}; i++ { ${id()}[i] = ${num()} }`,
      ])();
  }
}

/** A set that forgets its oldest entries, so memory stays bounded on endless streams. */
class RecentSet {
  private readonly items = new Set<string>();
  private readonly order: string[] = [];
  private head = 0;

  constructor(private readonly limit: number) {}

  has(text: string): boolean {
    return this.items.has(text);
  }

  add(text: string): void {
    if (this.items.has(text)) return;
    this.items.add(text);
    this.order.push(text);
    if (this.order.length - this.head > this.limit) {
      this.items.delete(this.order[this.head] as string);
      this.head++;
      if (this.head > this.limit) {
        this.order.splice(0, this.head);
        this.head = 0;
      }
    }
  }
}

function singular(entry: string): string {
  const bar = entry.indexOf('|');
  return bar < 0 ? entry : entry.slice(0, bar);
}

function plural(entry: string): string {
  const bar = entry.indexOf('|');
  if (bar >= 0) return entry.slice(bar + 1);
  if (/[A-Z]$/.test(entry)) return `${entry}s`;
  if (/(s|x|z|ch|sh)$/.test(entry)) return `${entry}es`;
  if (/[^aeiou]y$/.test(entry)) return `${entry.slice(0, -1)}ies`;
  return `${entry}s`;
}

/** [third person singular, past participle, gerund] */
function verbForms(base: string): readonly [string, string, string] {
  const listed = VERB_FORMS[base];
  if (listed) return listed;
  const third = /(s|x|z|ch|sh)$/.test(base) ? `${base}es` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ies` : `${base}s`;
  const participle = base.endsWith('e') ? `${base}d` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ied` : `${base}ed`;
  const gerund = /[^e]e$/.test(base) ? `${base.slice(0, -1)}ing` : `${base}ing`;
  return [third, participle, gerund];
}

function withArticle(phrase: string): string {
  // "an" before a vowel sound; acronyms like "LSM" or "NIC" start with a vowel sound too.
  const vowelSound = /^[aeiou]/i.test(phrase) && !/^(u[bcfhjkqrstn][aeiou]|uni|eu|one)/i.test(phrase);
  const acronym = /^[FHLMNRSX][A-Z]/.test(phrase);
  return `${vowelSound || acronym ? 'an' : 'a'} ${phrase}`;
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}
