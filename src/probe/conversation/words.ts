import { intBetween, pick, type Rng } from '../../prose/random.js';

/**
 * Word lists for the recall and contamination probes: the planted facts, the filler questions
 * and the topics. Written for this project; chosen so that no value can turn up by chance in
 * the simulator's prose or in an ordinary answer.
 */

const CODE_ADJECTIVES = [
  'AMBER',
  'COBALT',
  'CRIMSON',
  'DUSKY',
  'EMBER',
  'FROSTED',
  'GILDED',
  'HOLLOW',
  'IVORY',
  'JADE',
  'KINDLED',
  'LUNAR',
  'MOSSY',
  'NIMBLE',
  'OCHRE',
  'PEWTER',
  'QUIET',
  'RUSTED',
  'SILVER',
  'TAWNY',
  'UMBER',
  'VELVET',
  'WOVEN',
  'ZEPHYR',
];
const CODE_NOUNS = [
  'ANCHOR',
  'BADGER',
  'CANYON',
  'DYNAMO',
  'EGRET',
  'FALCON',
  'GLACIER',
  'HERON',
  'ISTHMUS',
  'JACKAL',
  'KESTREL',
  'LANTERN',
  'MARMOT',
  'NARWHAL',
  'OTTER',
  'PELICAN',
  'QUARRY',
  'RAVEN',
  'SPARROW',
  'THISTLE',
  'URCHIN',
  'VIPER',
  'WALRUS',
  'YARROW',
];

/** "COBALT-HERON-4821": three parts, so that its compact form (cobaltheron4821) is unique. */
export function codeWord(rng: Rng): string {
  return `${pick(rng, CODE_ADJECTIVES)}-${pick(rng, CODE_NOUNS)}-${intBetween(rng, 1000, 9999)}`;
}

const FIRST_NAMES = [
  'Ottoline',
  'Casimir',
  'Wilhelmina',
  'Thaddeus',
  'Isolde',
  'Leopold',
  'Marisol',
  'Evander',
  'Rosalind',
  'Augustin',
  'Philippa',
  'Bartholomew',
  'Seraphina',
  'Lazarus',
  'Genevieve',
  'Ignatius',
  'Clementine',
  'Florian',
  'Henrietta',
  'Percival',
];
const LAST_NAMES = [
  'Quarrington',
  'Vasquez-Lund',
  'Okonkwo',
  'Thistlewood',
  'Abernethy',
  'Marchetti',
  'Oyelaran',
  'Fairweather',
  'Kowalczyk',
  'Lindqvist',
  'Ashcombe',
  'Nakagawa',
  'Delacroix',
  'Brannigan',
  'Szabados',
  'Wetherell',
  'Castellanos',
  'Haverford',
  'Ilyushin',
  'Pemberton',
];

export function personName(rng: Rng): string {
  return `${pick(rng, FIRST_NAMES)} ${pick(rng, LAST_NAMES)}`;
}

/** Seven digits, never starting with 0. */
export function accountNumber(rng: Rng): string {
  return String(intBetween(rng, 1000000, 9999999));
}

/** What a fact is about; each conversation uses each at most once, so the final question names every fact apart. */
export const FACT_SUBJECTS = [
  'Lisbon warehouse',
  'Osaka office',
  'Rotterdam depot',
  'Nairobi data centre',
  'Calgary lab',
  'Porto archive',
  'Tromsø field station',
  'Valparaíso branch',
  'Krakow print shop',
  'Hobart ferry office',
  'Ghent bakery project',
  'Tbilisi translation team',
  'Quito greenhouse',
  'Aarhus bicycle workshop',
  'Dakar radio studio',
  'Leeds choir tour',
  'Perth mining survey',
  'Seville tile order',
  'Bergen harbour audit',
  'Cusco hiking permit',
  'Riga museum loan',
  'Ljubljana conference',
  'Halifax boat repair',
  'Kyoto tea shipment',
];

export const FILLER_TOPICS = [
  'connection pooling in a web service',
  'database index maintenance',
  'caching API responses',
  'rolling out feature flags',
  'writing good commit messages',
  'structured logging',
  'rate limiting a public API',
  'backing up a Postgres cluster',
  'choosing a message queue',
  'tuning garbage collection',
  'reviewing pull requests',
  'load testing before a launch',
  'rotating TLS certificates',
  'designing a retry policy',
  'measuring tail latency',
  'splitting a monolith',
  'managing secrets in CI',
  'handling time zones in schedules',
  'migrating a schema without downtime',
  'writing runbooks',
  'sizing a Kubernetes node pool',
  'debugging memory leaks',
  'versioning a REST API',
  'keeping dependencies up to date',
  'planning an on-call rotation',
  'estimating cloud costs',
  'profiling a slow endpoint',
  'testing with fake clocks',
  'documenting an internal library',
  'picking a serialization format',
];

export const FILLER_ASKS = [
  'Can you walk me through {topic}?',
  'What usually goes wrong with {topic}, in your experience?',
  'My team is arguing about {topic}. What would you weigh first?',
  'Give me a practical overview of {topic}, please.',
  'How would you explain {topic} to a new colleague?',
  'What are the trade-offs in {topic}?',
  "I'm writing notes on {topic}. What belongs in them?",
  'Quick question about {topic}: where do people usually start?',
  'If you had one afternoon to improve {topic}, what would you do?',
  'Which mistakes in {topic} are the most expensive later on?',
  'Can you compare two common approaches to {topic}?',
  'What should a checklist for {topic} contain?',
];

export const ACKNOWLEDGEMENTS = [
  "Got it, I'll keep that in mind.",
  'Noted. I will remember it for later.',
  'Understood; I have that written down.',
  'Sure, that is noted for later in our conversation.',
  "All right, I'll hold on to that detail.",
  'Thanks, I will keep it handy.',
];

/** Topics of the contamination probe's simultaneous requests: far apart, so one answer cannot pass for another. */
export const CONTAMINATION_TOPICS = [
  'how bees communicate with dances',
  'the history of the printing press',
  'how a sourdough starter works',
  'why the sky looks blue',
  'how lighthouses were kept lit',
  'the rules of curling',
  'how glaciers carve valleys',
  'what a compiler does with a for loop',
  'how tides follow the moon',
  'the life cycle of a monarch butterfly',
  'how vaccines train the immune system',
  'how a mechanical watch keeps time',
  'the origins of chess',
  'how coral reefs grow',
  'how a bicycle stays upright',
  'why bread goes stale',
  'how submarines dive and surface',
  'the basics of double-entry bookkeeping',
  'how birds navigate on migration',
  'how a violin makes its sound',
  'the water cycle',
  'how paper is made from wood',
  'how volcanoes form islands',
  'why cats purr',
  'how an elevator brake works',
  'the invention of the telegraph',
  'how cheese is aged',
  'how solar panels make power',
  'how a camera lens focuses',
  'how octopuses change colour',
  'the story of the Silk Road',
  'how a heat pump moves heat',
];
