/**
 * The collapses issue 8 found the analyzer letting through on real model output, each in
 * the shape it had there (text written here, not copied), and the repetitive-by-nature
 * texts that must stay quiet. Judged by analyzeText as a user of the library would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { healthyProse } from '../helpers/texts.js';

const fails = (text: string, kinds: RegExp, finishReason: string | null = null): void => {
  const a = analyzeText(text, { finishReason });
  assert.equal(a.verdict, 'fail', `${a.verdict}: ${a.reasons.join(' | ')}`);
  assert.ok(
    a.findings.some((f) => f.severity === 'fail' && kinds.test(f.kind)),
    a.reasons.join(' | '),
  );
  assert.ok(a.metrics.collapseOnset >= 0, 'the collapse has an onset');
};
const quiet = (text: string, finishReason: string | null = null): void => {
  const a = analyzeText(text, { finishReason });
  assert.equal(a.verdict, 'ok', a.reasons.join(' | '));
};

describe('collapses that end the output, below the old size thresholds', () => {
  it('a whole answer that is one short sentence x16', () => fails('I think. '.repeat(16), /sentence_loop|phrase_loop/));
  it('a normal sentence followed by 40 "!"', () =>
    fails('The migration finished and every table is in place' + '!'.repeat(40), /punctuation_flood/));
  it('a digit flood of a hundred zeros', () => fails('The measured offset was 0.' + '0'.repeat(100), /char_flood/));
  it('a unit glued inside one word', () => fails('Of'.repeat(32), /char_flood|word_loop|phrase_loop/));
  it('an output cut by the token limit inside a short loop fails whatever its size', () => {
    const text = healthyProse(120, 4) + ' Please check. Please check. Please check.';
    assert.notEqual(analyzeText(text).verdict, 'fail');
    fails(text, /sentence_loop|phrase_loop/, 'length');
  });
});

describe('repetition that is not back to back', () => {
  it('an answer cycling back over the same paragraphs', () => {
    const p = [
      'The first step is to measure the latency of every request, since a slow dependency shows up there first.',
      'After that, look at the cache hit ratio over a full day, because a cold cache explains most morning spikes.',
      'Finally, compare the error budget with the release calendar and hold back changes when it runs low.',
      'In short, latency, cache and error budget together tell you whether the service is healthy.',
    ];
    const text = [...p, ...p, ...p, ...p].join('\n\n');
    fails(text, /cycling|paragraph_loop/);
  });
});

describe('runaway enumerations', () => {
  it('a list that never ends: one short template with a new word each time', () => {
    const things = [
      'apples',
      'pears',
      'plums',
      'grapes',
      'melons',
      'lemons',
      'limes',
      'figs',
      'dates',
      'kiwis',
      'mangos',
      'papayas',
      'cherries',
      'berries',
      'peaches',
      'apricots',
    ];
    const items = Array.from({ length: 120 }, (_, i) => `${i + 1}. A basket of fresh ${things[i % things.length]} for the market stall`);
    fails('Here are some ideas for the stall:\n\n' + items.join('\n'), /list_runaway|near_loop|line_loop|cycling/, 'length');
  });
  it('numbered items that repeat the same entry with one more clause each time', () => {
    const clauses = [
      'with a clear goal',
      'and a short agenda',
      'sent a day before',
      'with notes shared after',
      'and a named owner',
      'kept under an hour',
      'with action items',
      'and a follow-up date',
    ];
    const items = Array.from(
      { length: 40 },
      (_, i) => `${i + 1}. Hold a weekly team meeting ${clauses.slice(0, 1 + (i % clauses.length)).join(' ')}.`,
    );
    fails('To improve communication:\n\n' + items.join('\n'), /list_runaway|near_loop|cycling|line_loop/, 'length');
  });
});

describe('garbage that repeats nothing', () => {
  it('short word salad: capitalised words, no sentence', () =>
    fails('Harbor Quantum velvet TRANS Mineral Orbitz Candle Lantern Swindon', /word_salad|gibberish/));
  it('replacement chars and glued fragments', () => fails(' \ufffdqua\ufffdnimerszsimerszuimersgghand', /gibberish/));
  it('a leaked special token in symbol soup', () => fails(';7?!22=4C%<｜▁pad▁｜>-QX', /special_tokens|gibberish/));
  it('a short answer that switches script', () =>
    fails(
      'Sure, here is the answer: 这个问题的答案是我们需要重新启动服务器然后检查日志文件中的错误信息并且确认所有的配置都是正确的这样才能解决问题',
      /script_switch/,
    ));
});

describe('repetitive by nature stays ok', () => {
  it('CSV data with a small vocabulary', () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) =>
        `2024-${String(1 + (i % 12)).padStart(2, '0')}-01,model-${i % 5},${(0.5 + ((i * 37) % 50) / 100).toFixed(2)},${(i * 13) % 97},ok`,
    );
    quiet('date,model,score,count,status\n' + rows.join('\n') + '\n');
  });
  it('a numbered list that ends', () => {
    const items = [
      'Check the logs',
      'Restart the service',
      'Warm the cache',
      'Verify the metrics',
      'Tell the team',
      'Write the postmortem',
      'Schedule a review',
    ];
    quiet('Steps:\n\n' + items.map((s, i) => `${i + 1}. ${s} before moving on to the next step.`).join('\n') + '\n\nThat is all you need.');
  });
  it('a song with a chorus', () => {
    const chorus = 'Oh the river runs, the river runs,\nall the way down to the sea.\n';
    quiet(
      [
        'Verse one walks along the shore,\nwhere the gulls and sailors meet.\n',
        chorus,
        'Verse two climbs the northern hill,\nwhere the wind is cold and sweet.\n',
        chorus,
        'Verse three comes home at night,\nwith the lanterns in the street.\n',
        chorus,
      ].join('\n'),
    );
  });
  it('a one-word answer and a short Japanese answer', () => {
    quiet('Paris.');
    quiet('はい、東京は日本の首都です。人口は約千四百万人で、世界でも有数の大都市です。');
  });
});
