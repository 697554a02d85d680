import type { VerdictModel } from '../../core/verdictModel.js';
import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';

export const analyze: Command = {
  summary: `analyse a text or a captured SSE stream for degeneration (exit ${EXIT.OK} ok/warn, ${EXIT.FAILED} fail, ${EXIT.USAGE} unreadable)`,
  usage: `coherency-exporter analyze [FILE|-] [--json] [--channel content|reasoning|both] [--finish-reason R]
                           [--verdict rules|learned] [--verdict-model FILE] [--expect-language CODE]

  FILE              plain text, or a captured chat-completion stream (its "data:" lines,
                    e.g. from curl -N); - or no FILE reads standard input
  --json            print {verdict, findings, reasons, metrics, score, finishReason} as JSON
                    instead of a report; for a stream also channels: each channel's own
                    {verdict, findings, reasons, metrics, score}, and each finding its channel
  --channel C       for streams: content, reasoning, or both (default): the reasoning and the
                    answer judged apart, as the daemon does, the verdict the worse of the two;
                    metrics and score are then the answer's
  --finish-reason R how the generation ended, for plain text (a captured stream says it
                    itself): "length" means it was cut by the token limit, which inside a
                    loop or flood is evidence of collapse whatever its size
  --verdict V       who decides: rules (default; the learned model's score is shown as
                    information) or learned (the model with the hard rules, see
                    docs/detection.md "The learned verdict")
  --verdict-model F a model retrained with npm run train (default: the committed one)
  --expect-language the language the answer must be in (ISO 639-1: en, ko, zh, ...); an
     CODE           answer mostly in another one fails wrong_language, as probes[].expect.language

Exit status: ${EXIT.OK} ok or warn, ${EXIT.FAILED} fail, ${EXIT.USAGE} unreadable input or model.`,
  options: {
    json: { type: 'boolean' },
    channel: { type: 'string' },
    'finish-reason': { type: 'string' },
    verdict: { type: 'string' },
    'verdict-model': { type: 'string' },
    'expect-language': { type: 'string' },
  },
  allowPositionals: true,
  async run(values, positionals, io) {
    const channel = String(values['channel'] ?? 'both');
    if (channel !== 'content' && channel !== 'reasoning' && channel !== 'both') {
      io.stderr(`error: --channel: must be content, reasoning or both, got "${channel}"\n`);
      return EXIT.USAGE;
    }
    if (positionals.length > 1) {
      io.stderr('error: analyze takes at most one FILE\n');
      return EXIT.USAGE;
    }
    const file = positionals[0] ?? '-';
    let text: string;
    try {
      // bounded and non-blocking: a FIFO or /dev/zero given as FILE is refused, not read without end
      const { readBoundedFile } = await import('../../files/readBoundedFile.js');
      const bytes = file === '-' ? await (io.readStdin ?? readStdin)() : await readBoundedFile(file, { maxBytes: ANALYZE_MAX_BYTES });
      if (bytes.length > ANALYZE_MAX_BYTES) throw new Error(`more than ${ANALYZE_MAX_BYTES} bytes`);
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'TOO_LARGE' ? `more than ${ANALYZE_MAX_BYTES} bytes` : e instanceof TypeError ? 'not UTF-8 text' : e.message;
      io.stderr(`error: cannot read ${file === '-' ? 'standard input' : file}: ${why}\n`);
      return EXIT.USAGE;
    }
    const finishReason = values['finish-reason'] === undefined ? null : String(values['finish-reason']);
    if (finishReason !== null && !/^[a-z_]{1,40}$/.test(finishReason)) {
      io.stderr(`error: --finish-reason: a finish_reason such as length or stop, got "${finishReason.slice(0, 40)}"\n`);
      return EXIT.USAGE;
    }
    const mode = String(values['verdict'] ?? 'rules');
    if (mode !== 'rules' && mode !== 'learned') {
      io.stderr(`error: --verdict: must be rules or learned, got "${mode.slice(0, 40)}"\n`);
      return EXIT.USAGE;
    }
    let verdictModel: VerdictModel | undefined;
    if (values['verdict-model'] !== undefined) {
      const { readVerdictModelFile } = await import('../../config/readVerdictModelFile.js');
      try {
        verdictModel = await readVerdictModelFile(String(values['verdict-model']));
      } catch (err) {
        io.stderr(`error: --verdict-model ${(err as Error).message}\n`);
        return EXIT.USAGE;
      }
    }
    const expected = values['expect-language'] === undefined ? null : String(values['expect-language']);
    const { IDENTIFIED_LANGUAGES } = await import('../../core/detectors/languageId/identifiedLanguages.js');
    if (expected !== null && !(IDENTIFIED_LANGUAGES as readonly string[]).includes(expected)) {
      io.stderr(
        `error: --expect-language: an ISO 639-1 code the language identifier knows (${IDENTIFIED_LANGUAGES.join(', ')}), got "${expected.slice(0, 40)}"\n`,
      );
      return EXIT.USAGE;
    }
    const { analyzeCapture } = await import('../../core/analyzeCapture.js');
    const result = analyzeCapture(text, channel, undefined, finishReason, {
      verdict: mode,
      score: true,
      ...(verdictModel ? { verdictModel } : {}),
      ...(expected !== null ? { expectLanguage: expected } : {}),
    });
    let { analysis } = result;
    let language: object | undefined;
    let also: Array<{ severity: string; kind: string; detail: string }> = [];
    if (expected !== null) {
      // as a probe's sample: an answer whose text already failed is explained by that, not counted wrong_language as well
      const { adherenceFindings, measureAdherence } = await import('../../core/promptAdherence.js');
      const expect = { keywords: [], minCoverage: 0, headings: 0, language: expected };
      const adherence = measureAdherence(result.answer, expect);
      const wrong = analysis.verdict === 'fail' ? [] : adherenceFindings(adherence, expect);
      language = { expected, reading: adherence.language, wrongLanguage: wrong.length > 0 };
      also = wrong;
      for (const f of wrong) analysis = { ...analysis, verdict: 'fail', reasons: [...analysis.reasons, `${f.kind}: ${f.detail}`] };
    }
    if (values['json']) {
      const { verdict, reasons, metrics, score, scoreError } = analysis;
      const { findingView } = await import('../../http/findingView.js');
      // A stream's findings say which channel they are from, as a probe's sample's do; plain text has no channels.
      const tagged = Object.entries(result.channels).flatMap(([name, a]) => a.findings.map((f) => ({ ...findingView(f), channel: name })));
      const findings = result.format === 'sse' ? tagged : analysis.findings.map(findingView);
      const channels =
        result.format === 'sse'
          ? {
              channels: Object.fromEntries(
                Object.entries(result.channels).map(([name, a]) => [
                  name,
                  {
                    verdict: a.verdict,
                    findings: a.findings.map(findingView),
                    reasons: a.reasons,
                    metrics: a.metrics,
                    score: a.score,
                    ...(a.scoreError !== undefined ? { scoreError: a.scoreError } : {}),
                  },
                ]),
              ),
            }
          : {};
      io.stdout(
        `${JSON.stringify({ verdict, findings, reasons, metrics, score, ...(scoreError !== undefined ? { scoreError } : {}), finishReason: result.finishReason, ...(language ? { language } : {}), ...channels }, null, 2)}\n`,
      );
    } else {
      const title = `${file === '-' ? 'stdin' : file} (${result.format === 'sse' ? `captured stream, ${channel}` : 'text'})`;
      const { formatReport } = await import('../../core/formatReport.js');
      const { content, reasoning } = result.channels;
      if (content && reasoning) {
        // Judged apart: the combined verdict first (with what the caller judged), then each channel's own report.
        const head = [`${title}: verdict ${analysis.verdict.toUpperCase()} (answer ${content.verdict}, reasoning ${reasoning.verdict})`];
        for (const f of also) head.push(`  - ${f.severity} ${f.kind}: ${f.detail}`);
        io.stdout(
          [
            `${head.join('\n')}\n`,
            formatReport(content, { title: 'answer (content)' }),
            formatReport(reasoning, { title: 'reasoning' }),
          ].join('\n'),
        );
      } else {
        io.stdout(formatReport(analysis, { title, also }));
      }
    }
    for (const note of result.notes) io.stderr(`note: ${note}\n`);
    return analysis.verdict === 'fail' ? EXIT.FAILED : EXIT.OK;
  },
};

/** Largest text `analyze` reads, from a file or standard input: a generation of a million tokens fits several times. */
const ANALYZE_MAX_BYTES = 64 * 1024 * 1024;

/** Standard input up to one byte past ANALYZE_MAX_BYTES (the caller refuses more): `< /dev/zero` ends. */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total > ANALYZE_MAX_BYTES) break;
  }
  return Buffer.concat(chunks);
}
