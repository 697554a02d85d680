import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { replayed } from '../../../src/core/detectors/repetition/replayed.js';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds.js';
import { detect } from '../../helpers/detectorHarness.js';
import { longAnswerWithHeadings, longStoryWithRefrain, replayedStory } from '../../helpers/replayShapes.js';
import { healthyProse } from '../../helpers/texts.js';

describe('replayed: the last part of a long output replays what it said before, with edits', () => {
  it('reads most of a replayed last part as said before, and little of healthy prose', () => {
    const story = replayedStory();
    assert.ok(story.length > 15_000, `length ${story.length}`);
    const r = replayed(story);
    assert.ok(r.share > 0.6, `replayed share ${r.share}`);
    assert.ok(replayed(healthyProse(2500)).share < 0.2);
  });

  it('masks digits, folds case and drops whitespace', () => {
    // a sentence a line, lines with code marks left out (they are not read as prose)
    const a = healthyProse(600, 11)
      .replace(/\s+/g, ' ')
      .split(/(?<=\.) /)
      .filter((l) => !/[`()[\]{}<>=|;]/.test(l))
      .join('\n');
    const b = a
      .toUpperCase()
      .replace(/ /g, '  ')
      .replace(/[0-9]+/g, (d) => String(Number(d) + 97));
    assert.ok(/[0-9]/.test(a), 'the prose has numbers');
    assert.ok(replayed(`${a}\n\n${a}`).share > 0.99);
    assert.ok(replayed(`${a}\n\n${b}`).share > 0.99);
  });

  it('fails a 16 KB story whose last 40% replays earlier scenes with one word changed per sentence', () => {
    const story = replayedStory();
    const a = analyzeText(story);
    assert.equal(a.verdict, 'fail', a.reasons.join('; '));
    assert.ok(a.findings.some((f) => f.kind === 'cycling' && f.detail.includes('replays')));
  });

  it('leaves a long story with a refrain and a long answer with repeated headings and code ok', () => {
    for (const text of [
      longStoryWithRefrain(),
      longAnswerWithHeadings(),
      longAnswerWithHeadings(16_384, 7, false),
      healthyProse(3000, 9),
    ]) {
      assert.ok(text.length > 10_000);
      const a = analyzeText(text);
      assert.equal(a.verdict, 'ok', `${a.reasons.join('; ')} (replay ${detect('repetition', text).figures.replay.share})`);
    }
  });

  it('reads the prose counterparts, and finds them under the threshold', () => {
    for (const text of [longStoryWithRefrain(), longAnswerWithHeadings(16_384, 7, false)]) {
      const r = detect('repetition', text).figures.replay;
      assert.ok(r.words && !r.table, 'read as words');
      assert.ok(r.share < DEFAULT_THRESHOLDS.replayShare, `replay ${r.share}`);
    }
  });

  it('leaves rows of data and lines of code out of the share', () => {
    const rows = Array.from({ length: 300 }, (_, i) => `2026-01-${i % 28},ST0${i % 5},Lisbon,${i % 9}.2,14.9,clear`).join('\n');
    const story = longStoryWithRefrain(9000);
    const r = replayed(`${story}\n\n${rows}\n\n${story.slice(0, 3000)}`);
    assert.ok(r.at >= 0);
    assert.ok(r.share > 0.9, 'the prose said again is read');
    assert.ok(replayed(`${story}\n\n${rows}\n\n${healthyProse(300, 4).replace(/[`()[\]{}<>=|;]/g, '')}`).share < 0.2, 'the rows are not');
  });

  it('fails a replayed story from 7,000 chars (replayMinChars), where healthy answers no longer restate most of their end', () => {
    const a = analyzeText(replayedStory(7200));
    assert.equal(a.verdict, 'fail');
    assert.match(a.reasons[0] ?? '', /^cycling: the last part replays/);
  });

  it('reads nothing under the minimum length, nor where the last part is code or a table', () => {
    const short = replayedStory(6000);
    assert.notEqual(
      analyzeText(short).findings.some((f) => f.detail.includes('replays')),
      true,
    );
    const code = Array.from({ length: 400 }, (_, i) => `  const v${i % 7} = items[${i}].map((x) => x + ${i % 5});`).join('\n');
    const rc = detect('repetition', code).figures.replay;
    assert.equal(rc.words, false);
    const csv = Array.from({ length: 600 }, (_, i) => `${i},north,widget,${(i * 7) % 13},ok`).join('\n');
    const rt = detect('repetition', csv).figures.replay;
    assert.ok(rt.table || !rt.words);
  });
});
