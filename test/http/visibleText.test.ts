// Issue 19, item 6: invisible and control characters of model output are shown as boxes on the
// pages, never interpreted; offsets and the JSON keep the raw text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markOutput } from '../../src/http/markOutput.js';
import { renderRun } from '../../src/http/renderRun.js';
import { escapeVisible } from '../../src/http/visibleText.js';
import { testRun } from '../helpers/testConfig.js';

/** Every code point the page holds as text, outside tags and attribute values. */
const rawCodePoints = (html: string) => [...html.replace(/<[^>]*>/g, '')].map((c) => c.codePointAt(0)!);
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;

describe('escapeVisible', () => {
  const cases: Array<[string, string]> = [
    ['abc\u202Edef', 'abc<span class="cp" title="U+202E RIGHT-TO-LEFT OVERRIDE">U+202E</span>def'],
    ['pass\u200Bword', 'pass<span class="cp" title="U+200B ZERO WIDTH SPACE">U+200B</span>word'],
    ['a\u0000b', 'a<span class="cp" title="U+0000 NULL">U+0000</span>b'],
    [
      'x\u2067y\u2069',
      'x<span class="cp" title="U+2067 RIGHT-TO-LEFT ISOLATE">U+2067</span>y<span class="cp" title="U+2069 POP DIRECTIONAL ISOLATE">U+2069</span>',
    ],
    [
      '\u{E0048}\u{E0069}',
      '<span class="cp" title="U+E0048 TAG character (invisible; can spell hidden text)">U+E0048</span><span class="cp" title="U+E0069 TAG character (invisible; can spell hidden text)">U+E0069</span>',
    ],
    ['\uFEFFhi', '<span class="cp" title="U+FEFF ZERO WIDTH NO-BREAK SPACE (BOM)">U+FEFF</span>hi'],
    ['<b>&"\'', '&#60;b&#62;&#38;&#34;&#39;'],
    ['tabs\tand\nlines\r\n stay', 'tabs\tand\nlines\r\n stay'],
    // joiners where a script needs them stay: an emoji family, a Persian word
    ['👨\u200D👩\u200D👧', '👨\u200D👩\u200D👧'],
    ['می\u200Cخواهم', 'می\u200Cخواهم'],
    ['a\u200Db', 'a<span class="cp" title="U+200D ZERO WIDTH JOINER">U+200D</span>b'],
  ];
  for (const [text, html] of cases) {
    test(JSON.stringify(text), () => assert.equal(escapeVisible(text), html));
  }
});

describe('pages show output as it is', () => {
  const text = `Healthy start. Then \u202Eesrever sdaer siht\u202C and a hid\u200Bden\u0000 word. ${'Loop\u200B again. '.repeat(10)}`;
  const loopAt = text.indexOf('Loop');

  test('the marked output holds no invisible code point, and the onset and loop marks sit at raw offsets', () => {
    const html = markOutput(text, {
      onset: loopAt,
      loop: { start: loopAt, period: 'Loop\u200B again. '.length, end: text.length },
      id: 's0',
      onsetTitle: '',
    });
    assert.equal(rawCodePoints(html).filter((c) => HIDDEN.test(String.fromCodePoint(c))).length, 0);
    const beforeOnset = html.slice(0, html.indexOf('<mark class="onset"'));
    assert.match(beforeOnset, /U\+202E.*U\+200B.*U\+0000/s, 'what precedes the onset mark is what precedes the raw offset');
    assert.equal((html.match(/<mark class="loop/g) ?? []).length, 10, 'one mark per copy: copies are cut at raw offsets');
  });

  test('a run page shows boxes in output, reasons and figures; the run itself is unchanged', () => {
    const run = testRun('r1', [
      {
        index: 0,
        verdict: 'fail',
        reasons: ['content: sentence_loop: "Loop\u200B again." x10'],
        findings: [],
        notes: ['\u202Eoddly'],
        content: text,
        reasoning: '',
        metrics: null,
        error: null,
        outputTokens: 10,
        finishReason: 'length',
        ttftSeconds: null,
        durationSeconds: 1,
        tokensPerSecond: null,
        aborted: false,
        tokensAtAbort: null,
        tokensSaved: 0,
        contentChars: text.length,
        reasoningChars: 0,
      },
    ]);
    const before = JSON.stringify(run);
    const page = renderRun(run, Date.parse('2026-01-01T00:01:00Z'));
    assert.equal(rawCodePoints(page).filter((c) => HIDDEN.test(String.fromCodePoint(c))).length, 0, 'no raw invisible code point');
    assert.match(page, /<li>content: sentence_loop: &#34;Loop<span class="cp"[^>]*>U\+200B<\/span> again/);
    assert.match(page, /<li><span class="cp" title="U\+202E RIGHT-TO-LEFT OVERRIDE">U\+202E<\/span>oddly<\/li>/);
    assert.equal(JSON.stringify(run), before, 'rendering leaves the run (and so the JSON answer) as it was');
  });

  test("a conformance run's checklist shows boxes in what the server sent (detail, evidence, error); a damaged checklist still renders", () => {
    const sample = {
      index: 0,
      verdict: 'fail' as const,
      reasons: [],
      findings: [],
      notes: [],
      content: '',
      reasoning: '',
      metrics: null,
      error: { type: 'http_status' as const, message: 'HTTP 500: \u202Eoops' },
      outputTokens: 0,
      finishReason: null,
      ttftSeconds: null,
      durationSeconds: 1,
      tokensPerSecond: null,
      aborted: false,
      tokensAtAbort: null,
      tokensSaved: 0,
      contentChars: 0,
      reasoningChars: 0,
      outcome: {
        kind: 'conformance' as const,
        reasoningModel: false,
        streaming: null,
        checks: [
          {
            check: 'models' as const,
            status: 'fail' as const,
            reason: 'model_mismatch' as const,
            detail: 'responses name \u202Eledom',
            evidence: { model: 'm\u200Bx\u0000' },
            durationSeconds: 0.1,
          },
        ],
      },
    };
    const page = renderRun(testRun('c1', [sample]), Date.parse('2026-01-01T00:01:00Z'));
    assert.equal(rawCodePoints(page).filter((c) => HIDDEN.test(String.fromCodePoint(c))).length, 0, 'no raw invisible code point');
    assert.match(page, /responses name <span class="cp"[^>]*>U\+202E<\/span>ledom/);
    assert.match(page, /<dd>m<span class="cp"[^>]*>U\+200B<\/span>x<span class="cp"[^>]*>U\+0000<\/span><\/dd>/);
    // a stored run edited or damaged: checks of the wrong type
    const damaged = testRun('c2', [{ ...sample, outcome: { ...sample.outcome, checks: 'broken' as unknown as [] } }]);
    const page2 = renderRun(damaged, Date.parse('2026-01-01T00:01:00Z'));
    assert.match(page2, /stored record is damaged/);
  });
});
