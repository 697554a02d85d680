import { analyzedTexts, analyzeFile, type Case, check, runCases } from './shared.js';

/**
 * The language-switch reading's prose walk from outside (branch lidwalk): a line that holds URLs
 * or inline code is judged again with them read as spaces, on the text itself rather than on a
 * cleaned copy. Answers whose prose lines carry URLs and inline code (a URL inside a code span,
 * backticks inside a URL) keep their verdicts: a healthy one stays ok, one whose last paragraphs
 * turn German still fails; a single line of 1 MB of URLs and inline code, and one of 1 MB of
 * prose, are judged in bounded time. About 3 s.
 */

const EN = [
  'To read the logs of the service, open the dashboard at https://grafana.example.com/d/svc and pick the time range you need; the panel `Requests per second` shows the load before and after the deploy.',
  'If the numbers look wrong, run `kubectl logs deploy/api --since=1h` and compare the error lines with the notes in the wiki page at https://wiki.example.com/`runbook`/api, which lists the usual causes.',
  'Most of the time the cause is a slow database: the query plan tells you which index is missing, and adding it with `CREATE INDEX CONCURRENTLY` keeps the table readable while it is built.',
  'When everything is back to normal, write a short note of what happened and what you changed, so that the next person on call does not have to find it all out again from the start.',
];
const DE = [
  'Danach sollte man die Konfiguration in der Datei `config.yaml` prüfen und die alten Einträge entfernen, weil sie sonst beim nächsten Start wieder geladen werden und denselben Fehler auslösen.',
  'Außerdem ist es sinnvoll, die Dokumentation unter https://docs.example.com/betrieb zu lesen, denn dort wird genau beschrieben, wie man den Dienst nach einer Störung sicher wieder hochfährt.',
];

/** One line of about `chars` chars: URLs, inline code with a URL inside, and a few words, over and over. */
function urlsAndCode(chars: number): string {
  const unit = 'see https://example.com/a_b?c=d and `run https://e.com/x now` then `x_y` words ';
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

/** One line of about `chars` chars of plain prose (a degenerate answer with no line break). */
function proseLine(chars: number): string {
  const unit = 'the answer goes on and on about the garden and the soil and the rain ';
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

const TEXTS = {
  healthy: EN.join('\n\n'),
  drift: [...EN, ...DE].join('\n\n'),
  urlsLine: urlsAndCode(1_000_000),
  proseLine: proseLine(1_000_000),
};

export async function lidwalkCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file, healthy } = analyzedTexts(root, 'lidwalk', TEXTS);
  const bounded = async (name: keyof typeof TEXTS): Promise<string> => {
    const a = await analyzeFile(file(name));
    check(a.verdict === 'ok' || a.verdict === 'warn' || a.verdict === 'fail', `exit ${a.code}, verdict ${a.verdict}`);
    check(a.ms < 10_000, `${Math.round(a.ms)} ms`);
    return `exit ${a.code}, ${a.verdict} in ${Math.round(a.ms)} ms`;
  };
  const cases: Case[] = [
    [
      'analyze: an answer whose prose lines hold URLs and inline code (a URL inside a code span, backticks in a URL) is ok',
      () => healthy('healthy'),
    ],
    [
      'analyze: the same answer whose last two paragraphs (with inline code and a URL) turn German fails (language_switch)',
      async () => {
        const a = await analyzeFile(file('drift'));
        check(
          a.verdict === 'fail' && a.findings.some((f) => f.startsWith('language_switch')),
          `exit ${a.code}, ${a.verdict}: ${a.findings.join('; ')}`,
        );
        return `exit ${a.code}, fail (${a.findings.join('; ')})`;
      },
    ],
    ['analyze: one line of 1 MB of URLs and inline code is judged within 10 s', () => bounded('urlsLine')],
    ['analyze: one line of 1 MB of prose is judged within 10 s', () => bounded('proseLine')],
  ];
  await runCases(cases, results);
}
