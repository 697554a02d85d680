/** The learned verdict: its score in every finished analysis, the 'learned' mode's rules, and model files. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readVerdictModelFile } from '../../src/config/readVerdictModelFile.js';
import { analyzeText } from '../../src/core/analyzeText.js';
import { DEFAULT_VERDICT_MODEL } from '../../src/core/defaultVerdictModel.js';
import { FINDING_KINDS } from '../../src/core/finding.js';
import { formatReport } from '../../src/core/formatReport.js';
import { Engine } from '../../src/core/engine.js';
import { createStreamAnalyzer } from '../../src/core/streamAnalyzer.js';
import { featureReader } from '../../src/core/verdictFeatureReader.js';
import { FEATURE_NAMES, featuresOf } from '../../src/core/verdictFeatures.js';
import type { VerdictModel } from '../../src/core/verdictModel.js';
import { holdoutCorpus, tuningCorpus } from '../corpus/generate.js';

/** A healthy Go program, written for this test. */
const GO = `package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// wordCounts reads a file and counts how often each word occurs, ignoring case.
func wordCounts(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	counts := make(map[string]int)
	for _, w := range strings.Fields(string(data)) {
		counts[strings.ToLower(strings.Trim(w, ".,;:!?\\"'()"))]++
	}
	return counts, nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: wordcount FILE")
		os.Exit(2)
	}
	counts, err := wordCounts(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool { return counts[words[i]] > counts[words[j]] })
	for _, w := range words[:min(10, len(words))] {
		fmt.Printf("%6d %s\\n", counts[w], w)
	}
}
`;

/** The committed model's threshold as the reports print it (3 decimals), for a regular expression: retraining moves it. */
const T = DEFAULT_VERDICT_MODEL.threshold.toFixed(3).replace('.', '\\.');
/** The program ending in a short run of "!?": a punctuation flood (a fail of the rules, not a hard kind) that the model scores under its threshold. */
const SOFT = `${GO}\n${'!?'.repeat(40)}`;
/** Words that make no sentence, each once: no rule fails it, the model scores it high. */
const SALAD =
  'Here is a short guide to keeping a kitchen herb garden healthy through the winter months.\n\n' +
  'window basil frost grammar lantern seven quietly orbit the mint purple taxes under sideways honey collapses remember '.repeat(3) +
  'parsley oven bright gravel whisper thirty nor elegant pigeon compile soup harbor fragile ankle tomorrow'.repeat(2);

function withModel(over: Partial<VerdictModel>): VerdictModel {
  return { ...DEFAULT_VERDICT_MODEL, ...over };
}

describe('featureReader', () => {
  it('reads by name exactly what featuresOf computes, on corpus texts (the committed model scores what it was fitted on)', () => {
    assert.deepEqual(DEFAULT_VERDICT_MODEL.features, [...FEATURE_NAMES]);
    const read = featureReader(FEATURE_NAMES);
    const texts = [...holdoutCorpus().filter((_, i) => i % 6 === 0), ...tuningCorpus().filter((_, i) => i % 25 === 0)].map((s) => s.text);
    texts.push(SOFT, SALAD, '', 'the '.repeat(700), `${'这是一个测试。'.repeat(30)}\n\nThe end of the answer comes in English here.`);
    for (const text of texts) {
      const e = new Engine(text.length);
      e.push(text);
      const figures = e.figures();
      const findings = analyzeText(text).findings;
      const slice = (a: number, b: number) => text.slice(a, b);
      assert.deepEqual(read(figures, findings, slice), featuresOf(figures, findings, slice), text.slice(0, 60));
    }
  });

  it('refuses a name it cannot read, naming it', () => {
    assert.throws(() => featureReader(['base.chars', 'text.renamed']), /feature 1 is text\.renamed, not a figure/);
    assert.throws(() => featureReader(['finding.nonsense.fail']), /feature 0 is finding\.nonsense\.fail, a flag of no finding kind/);
  });
});

describe('the learned score', () => {
  it('is in every finished analysis under the learned verdict, and under the rules when asked for, with the model’s threshold and warn band and five contributions', () => {
    // not asked for under the rules: not computed (it costs about a fifth of a call)
    assert.equal(analyzeText(SOFT).score, undefined);
    assert.ok(analyzeText(SOFT, { verdict: 'learned' }).score);
    const a = analyzeText(SOFT, { score: true });
    assert.ok(a.score, 'a score');
    assert.equal(a.score.mode, 'rules');
    assert.ok(a.score.probability > 0 && a.score.probability < 1);
    assert.equal(a.score.threshold, DEFAULT_VERDICT_MODEL.threshold);
    assert.equal(a.score.warnFrom, DEFAULT_VERDICT_MODEL.warnAbove);
    assert.equal(a.score.contributions.length, 5);
    // rules mode: the rules decide, whatever the score
    assert.equal(a.verdict, 'fail');
  });

  it('is left out of a partial snapshot (the model judges the finished text)', () => {
    const s = createStreamAnalyzer({ score: true });
    s.push(SOFT);
    assert.equal(s.snapshot({ partial: true }).score, undefined);
    assert.ok(s.snapshot().score);
  });

  it('streamed equals whole, score and verdict, in both modes, on corpus texts', () => {
    const samples = tuningCorpus().filter((_, i) => i % 12 === 0);
    assert.ok(samples.length >= 20);
    for (const verdict of ['rules', 'learned'] as const) {
      for (const { name, text } of samples) {
        const whole = analyzeText(text, { verdict, score: true });
        const s = createStreamAnalyzer({ verdict, score: true });
        for (let i = 0; i < text.length; i += 97) s.push(text.slice(i, i + 97));
        assert.deepEqual(s.snapshot(), whole, `${verdict}: ${name}`);
      }
    }
  });

  it('shows in the report with its contributions', () => {
    const report = formatReport(analyzeText(SOFT, { score: true }));
    assert.match(report, new RegExp(`learned model \\(information only: the rules decide\\): probability 0\\.\\d{3}, fail from ${T}`));
    assert.match(report, /\n {2}\+\d\.\d\d {2}finding\.punctuation_flood\.fail\n/);
  });
});

describe("verdict: 'learned'", () => {
  it('turns a soft fail with a low score into a warning, and says why', () => {
    const rules = analyzeText(SOFT, { score: true });
    assert.deepEqual(
      rules.findings.map((f) => [f.kind, f.severity, f.certain]),
      [['punctuation_flood', 'fail', false]],
    );
    assert.ok(!DEFAULT_VERDICT_MODEL.hardKinds.includes('punctuation_flood'));
    assert.ok(rules.score!.probability < DEFAULT_VERDICT_MODEL.threshold, String(rules.score!.probability));
    const learned = analyzeText(SOFT, { verdict: 'learned' });
    assert.equal(learned.verdict, 'warn');
    assert.equal(learned.score!.mode, 'learned');
    assert.deepEqual(
      learned.findings.map((f) => [f.kind, f.severity]),
      [['punctuation_flood', 'warn']],
    );
    assert.match(
      learned.findings[0]!.detail,
      new RegExp(`a warning under the learned verdict: probability 0\\.\\d+ is under its threshold ${T}`),
    );
    assert.equal(learned.metrics.collapseOnset, -1);
    assert.equal(learned.metrics.collapseKind, '');
  });

  it('keeps a soft fail a fail when the score reaches the threshold', () => {
    const a = analyzeText(SOFT, { verdict: 'learned', verdictModel: withModel({ threshold: 0.01, warnAbove: 0.01 }) });
    assert.equal(a.verdict, 'fail');
    assert.deepEqual(
      a.findings.map((f) => [f.kind, f.severity]),
      [['punctuation_flood', 'fail']],
    );
  });

  it('fails on a hard finding whatever the score', () => {
    const never = withModel({ threshold: 1, warnAbove: 1 });
    const certain = analyzeText('the '.repeat(700), { verdict: 'learned', verdictModel: never });
    assert.equal(certain.verdict, 'fail');
    assert.ok(certain.findings.some((f) => f.severity === 'fail' && f.certain));
    // a hard kind that is not certain: a short sentence loop
    const loop = `${GO}\n${'The count is written to standard output. '.repeat(5)}`;
    const rules = analyzeText(loop);
    const hard = rules.findings.find((f) => f.severity === 'fail');
    assert.ok(hard && !hard.certain && DEFAULT_VERDICT_MODEL.hardKinds.includes(hard.kind), JSON.stringify(rules.findings));
    assert.equal(analyzeText(loop, { verdict: 'learned', verdictModel: never }).verdict, 'fail');
  });

  it('fails a text no rule fails when the score reaches the threshold, naming the figures', () => {
    assert.equal(analyzeText(SALAD).verdict, 'ok');
    const a = analyzeText(SALAD, { verdict: 'learned' });
    assert.ok(a.score!.probability >= a.score!.threshold);
    assert.equal(a.verdict, 'fail');
    assert.equal(a.findings.length, 1);
    const f = a.findings[0]!;
    assert.equal(f.kind, 'learned');
    assert.equal(f.atChar, -1);
    assert.match(f.detail, new RegExp(`probability of degeneration of 0\\.\\d{3}, at or above its threshold ${T}: most from \\S+ \\+\\d`));
    assert.equal(a.metrics.collapseKind, 'learned');
    assert.ok(FINDING_KINDS.includes('learned'));
  });

  it('warns in the band below the threshold, and is ok under it', () => {
    const p = analyzeText(SALAD, { score: true }).score!.probability;
    const band = analyzeText(SALAD, {
      verdict: 'learned',
      verdictModel: withModel({ threshold: Math.min(1, p + 0.01), warnAbove: p - 0.01 }),
    });
    assert.equal(band.verdict, 'warn');
    assert.deepEqual(
      band.findings.map((f) => [f.kind, f.severity]),
      [['learned', 'warn']],
    );
    const under = analyzeText(SALAD, {
      verdict: 'learned',
      verdictModel: withModel({ threshold: Math.min(1, p + 0.01), warnAbove: Math.min(1, p + 0.01) }),
    });
    assert.equal(under.verdict, 'ok');
  });
});

describe('readVerdictModelFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-model-'));
  const file = (name: string, body: string) => {
    const path = join(dir, name);
    writeFileSync(path, body);
    return path;
  };

  it('reads a model written as npm run train writes it', async () => {
    const path = file('good.json', `${JSON.stringify(DEFAULT_VERDICT_MODEL, null, 2)}\n`);
    assert.deepEqual(await readVerdictModelFile(path), DEFAULT_VERDICT_MODEL);
  });

  it('names the file and what is wrong with it', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['missing.json', '', /missing\.json: no such file/],
      ['notjson.json', '{"version": 1,', /notjson\.json: not JSON/],
      ['weights.json', JSON.stringify({ ...DEFAULT_VERDICT_MODEL, weights: [1] }), /weights\.json: verdict model: weights has 1 entries/],
      [
        'features.json',
        JSON.stringify({ ...DEFAULT_VERDICT_MODEL, features: ['x', ...DEFAULT_VERDICT_MODEL.features.slice(1)] }),
        /features\.json: verdict model: feature 0 is x, this analyzer computes base\.chars there: retrain/,
      ],
    ];
    for (const [name, body, message] of cases) {
      const path = name === 'missing.json' ? join(dir, name) : file(name, body);
      await assert.rejects(readVerdictModelFile(path), message, name);
    }
    await assert.rejects(readVerdictModelFile(dir), /is a directory/);
  });
});

describe('a score that cannot be computed', () => {
  // a model naming a figure this analyzer does not have: its reader throws, as a fault in the reading would
  const broken: VerdictModel = {
    ...DEFAULT_VERDICT_MODEL,
    features: ['nowhere.figure', ...DEFAULT_VERDICT_MODEL.features.slice(1)],
  };
  const loop = `${'A healthy opening about leader election, with words enough to read as prose. '.repeat(2)}${'Then the answer loops on this very sentence forever. '.repeat(40)}`;

  it('loses the score, never the verdict: the rules decide, under the learned verdict too', () => {
    const rules = analyzeText(loop);
    assert.equal(rules.verdict, 'fail');
    for (const verdict of ['rules', 'learned'] as const) {
      const a = analyzeText(loop, { verdict, score: true, verdictModel: broken });
      assert.equal(a.verdict, rules.verdict, verdict);
      assert.deepEqual(a.findings, rules.findings, verdict);
      assert.equal(a.score, undefined, verdict);
      assert.match(a.scoreError ?? '', /feature 0 is nowhere\.figure, not a figure/, verdict);
      assert.match(formatReport(a), /learned model: no score \(verdict model: feature 0 is nowhere\.figure.*\); the rules decided/);
    }
    assert.equal(analyzeText(loop, { score: true }).scoreError, undefined);
  });
});
