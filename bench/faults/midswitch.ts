import { analyzedTexts, analyzeFile, check, runCases } from './shared.js';

/**
 * Issue 35 item 2 and issue 36 (a switch that comes back): `analyze` from outside on an English
 * answer that turns Spanish for a paragraph and returns (fail), the same paragraph quoted or
 * announced as a translation (ok), and a long answer sprinkled with such paragraphs, whose
 * middle is read bounded (timed). A few seconds.
 */

const EN = [
  'A good garden starts with the soil. Before planting anything, dig a small hole and look at what comes out: dark, crumbly earth full of worms is a good sign, while grey clay that sticks to the spade needs work.',
  'Compost is the simplest way to improve it. Spread a layer of about five centimetres over the beds in autumn and let the rain and the worms carry it down during the winter months.',
  'Watering matters as much as feeding. Water deeply once or twice a week rather than a little every day, so that the roots grow down towards the moisture instead of staying near the surface.',
  'Finally, keep a notebook. Write down what you planted, where and when, and how it did; after two or three seasons you will know your own garden better than any book could tell you.',
];
const ES =
  'Además, conviene regar las plantas por la mañana temprano, cuando el sol todavía no calienta demasiado, porque así el agua llega a las raíces antes de evaporarse. También es importante cubrir la tierra con una capa de paja o de hojas secas para que conserve la humedad durante los días más calurosos del verano.';

const around = (middle: string) => `${EN[0]}\n\n${EN[1]}\n\n${middle}\n\n${EN[2]}\n\n${EN[3]}`;

const TEXTS = {
  drift: around(ES),
  quoted: around(`“${ES}”`),
  translation: around(`Translation:\n\n${ES}`),
  long: Array.from({ length: 1500 }, (_, k) => (k % 7 === 3 ? ES : EN[k % EN.length])).join('\n\n'),
};

export async function midswitchCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file, healthy } = analyzedTexts(root, 'midswitch', TEXTS);
  await runCases(
    [
      [
        'analyze: an English answer with a Spanish paragraph in the middle, then English again -> fail language_switch',
        async () => {
          const a = await analyzeFile(file('drift'));
          check(
            a.code === 1 && a.reason.startsWith('language_switch') && a.reason.includes('comes back'),
            `exit ${a.code}, ${a.verdict}: ${a.reason}`,
          );
          return `exit 1, ${a.reason}`;
        },
      ],
      ['analyze: the same Spanish paragraph in quotes -> ok', () => healthy('quoted')],
      ['analyze: the same Spanish paragraph under a "Translation:" heading -> ok', () => healthy('translation')],
      [
        'analyze: 300 KB of English with a Spanish paragraph every seventh (middle read bounded) -> fail, language_switch midSwitchUnits among the findings',
        async () => {
          const a = await analyzeFile(file('long'));
          // the text repeats itself too (cycling comes first): the case looks for the switch among the findings
          check(
            a.code === 1 && a.findings.includes('language_switch midSwitchUnits'),
            `exit ${a.code}, ${a.verdict}: ${a.findings.join(', ')}`,
          );
          return `exit 1 in ${(a.ms / 1000).toFixed(1)} s (${TEXTS.long.length} chars): ${a.findings.join(', ')}`;
        },
      ],
    ],
    results,
  );
}
