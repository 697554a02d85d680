import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { comparisonHtml, describeComparison, fingerprintHtml, looksWorse, percentChange } from '../../src/http/renderChange.js';
import { summarize, type SampleFigures } from '../../src/fingerprint/changeComparison.js';
import { normalizeFingerprint } from '../../src/fingerprint/normalizeFingerprint.js';
import { sampleFiguresOf } from '../helpers/sampleFigures.js';

const ok: SampleFigures = sampleFiguresOf({ itlSeconds: 0.05 });
const broken: SampleFigures = { ...ok, failed: true, loop: true, onsetToken: 300, itlSeconds: 0.0195 };

describe('percentChange', () => {
  test('signed, rounded, with a real minus; null without both sides or from 0', () => {
    assert.equal(percentChange(0.05, 0.0195), '−61%');
    assert.equal(percentChange(1, 1.5), '+50%');
    assert.equal(percentChange(1, 1.001), '±0%');
    assert.equal(percentChange(null, 1), null);
    assert.equal(percentChange(0, 1), null);
  });
});

describe('describeComparison', () => {
  const hour = 3600_000;
  test('the line the issue asks for: failed before and after, loops, onset, ITL', () => {
    const c = {
      target: 't',
      probe: 'p',
      changedAtMs: 0,
      what: 'version 1 → 2',
      before: summarize(Array(12).fill(ok)),
      after: summarize([broken, broken, broken, ok]),
    };
    assert.equal(
      describeComparison(c, 2 * hour),
      'since the change 2 h ago (version 1 → 2): 3 of 4 samples failed, before 0 of 12; loops or stutter in 3 of 4, before 0 of 12; loops start at token 300; ITL −61%; TTFT ±0%',
    );
    assert.equal(looksWorse(c), true);
    assert.match(comparisonHtml(c, 2 * hour), /^<p class="change worse">since the change 2 h ago \(version 1 → 2\)/);
  });

  test('no sample since the change yet; recall and checks when both sides have them', () => {
    const none = { target: 't', probe: 'p', changedAtMs: 0, what: '', before: summarize([ok]), after: summarize([]) };
    assert.equal(describeComparison(none, 0), 'since the change just now: no sample yet; before, 0 of 1 samples failed');
    assert.equal(looksWorse(none), false);
    const r = { ...ok, recall: 0.5, conformanceFailed: 0.25, ttftSeconds: null, itlSeconds: null };
    const c = { ...none, before: summarize([{ ...r, recall: 1, conformanceFailed: 0 }]), after: summarize([r]) };
    assert.equal(
      describeComparison(c, 0),
      'since the change just now: 0 of 1 samples failed, before 0 of 1; recall 0.50, before 1.00; checks failed 25%, before 0%',
    );
    const g = { ...ok, ttftSeconds: null, itlSeconds: null };
    const golden = {
      ...none,
      before: summarize([{ ...g, golden: 1 }]),
      after: summarize([
        { ...g, golden: 1 },
        { ...g, golden: 0 },
      ]),
    };
    assert.equal(
      describeComparison(golden, 0),
      'since the change just now: 0 of 2 samples failed, before 0 of 1; golden answers right 50%, before 100%',
    );
  });

  test('what a server said is escaped on the page', () => {
    const c = { target: 't', probe: 'p', changedAtMs: 0, what: 'headers.server <b> → x', before: summarize([ok]), after: summarize([ok]) };
    assert.ok(comparisonHtml(c, 0).includes('&#60;b&#62;'));
    const fp = normalizeFingerprint({
      served: [{ model: '<script>', systemFingerprint: null, headers: { server: 'a"b' } }],
      modelEntry: null,
      info: null,
      unavailable: ['info: none answered'],
    });
    const html = fingerprintHtml(fp);
    assert.ok(!html.includes('<script>'));
    assert.match(html, /unavailable<\/td><td>info: none answered/);
    assert.ok(html.includes(fp.hash));
  });
});
