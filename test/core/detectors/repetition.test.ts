import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const prose = healthyProse(1200, 7);
const after = healthyProse(1200, 8);
const sentence = 'The cache is warmed before the first request arrives. ';
const judged = (text: string, finishReason: string | null = null) => verdicts(detect('repetition', text, { finishReason }).findings);

describe('repetition: copies of a unit at the end', () => {
  const table: Array<[string, string, RegExp]> = [
    ['a word loop', `${prose} the the the the the the the the`, /^word_loop\/fail/],
    ['a phrase loop', `${prose} ${'is a quote '.repeat(12)}`, /^phrase_loop\/fail/],
    ['a sentence loop', `${prose} ${sentence.repeat(10)}`, /^sentence_loop\/fail/],
    ['a line loop', `${prose}\n${'- The Three-Body Problem by Cixin Liu\n'.repeat(12)}`, /^line_loop\/fail/],
    ['a paragraph loop', `${prose}\n\n${`${healthyProse(200, 2)}\n\n`.repeat(3)}`, /^paragraph_loop\/fail/],
    ['a punctuation flood', `${prose} ${'!'.repeat(40)}`, /^punctuation_flood\/fail/],
    ['a border flood beyond a line', `${prose}\n${'|---'.repeat(60)}`, /^punctuation_flood\/fail/],
    ['a tag flood', `${prose} ${'</think>'.repeat(40)}`, /^tag_spam\/fail/],
    ['three copies of a sentence: nothing (healthy text ends in up to 2.2)', `${prose} ${sentence.repeat(3)}`, /^$/],
    ['three and a half: a warning', `${prose} ${sentence.repeat(3)}The cache is warmed before the`, /^sentence_loop\/warn$/],
    ['a horizontal rule', `${prose}\n\n${'-'.repeat(80)}\n`, /^$/],
    ['nested closing tags', `${prose}</td></tr></table></td></tr></table></body></html>`, /^$/],
    ['a chorus sung twice', `${prose}\nNa na na, na na na na,\nna na na, na na na na.`, /^$/],
  ];
  for (const [name, text, want] of table) it(name, () => assert.match(judged(text).join(','), want));

  it('a sentence said ten times, each copy with another adjective swapped in, fails; a list in one template does not', () => {
    const words = ['quiet', 'early', 'careful', 'small', 'warm', 'second', 'plain', 'steady', 'final', 'whole'];
    const stuck = words
      .map((w) => `The ferry came around the ${w} headland at last, its horn sounding once as if it were sorry.`)
      .join(' ');
    assert.match(judged(`${prose} ${stuck}`).join(','), /^sentence_loop\/fail/);
    const items = [
      ['Lisbon', 'Portugal', 'tiles'],
      ['Kyoto', 'Japan', 'temples'],
      ['Oaxaca', 'Mexico', 'markets'],
      ['Tromso', 'Norway', 'auroras'],
      ['Hoi An', 'Vietnam', 'lanterns'],
      ['Cusco', 'Peru', 'ruins'],
      ['Tbilisi', 'Georgia', 'baths'],
      ['Fez', 'Morocco', 'tanneries'],
      ['Hobart', 'Tasmania', 'oysters'],
      ['Ghent', 'Belgium', 'canals'],
    ];
    const list = items.map(([city, country, sight]) => `Visit ${city} in ${country} for its ${sight}.`).join('\n');
    assert.deepEqual(judged(`${prose}\n${list}`), []);
  });
  it('a loop cut by the token limit fails from three copies', () => {
    const text = `${prose} Please check. Please check. Please check.`;
    assert.deepEqual(judged(text), []);
    assert.match(judged(text, 'length').join(), /^(phrase|sentence)_loop\/fail$/);
  });

  it('copies that differ by a swapped word are copies', () => {
    const swaps = ['quickly', 'slowly', 'calmly'];
    const copies = Array.from(
      { length: 8 },
      (_, i) => `The ferry appeared around the headland at last, ${swaps[i % 3]} and rust-streaked, its horn sounding once.`,
    ).join(' ');
    assert.match(judged(`${prose} ${copies}`).join(), /sentence_loop\/fail/);
  });

  it('a unit of words whose every copy inserts a new word, or drops one of several tokens, is stuck', () => {
    // "v2.4.1-rc3" and "north-east" are several tokens each: dropping one shifts a copy by more than two tokens; each
    // copy brings a word the loop had not had, but one in thirty of its tokens
    const base =
      'The nightly build of v2.4.1-rc3 finished on the north-east runners at 02:14, and the report was sent to the release list before the morning stand-up.';
    const pool = ['again', 'quietly', 'late', 'once', 'finally', 'early', 'slowly', 'twice'];
    const copies = (n: number, drop: boolean) =>
      Array.from({ length: n }, (_, i) => {
        const w = base.split(' ');
        if (drop && i % 3 === 2) w.splice((i * 5) % w.length, 1);
        else w.splice((i * 7) % w.length, 0, pool[i % pool.length]!);
        return w.join(' ');
      });
    assert.match(judged(`${prose}\n\n${copies(8, false).join(' ')}`).join(), /^sentence_loop\/fail/);
    assert.match(judged(`${prose}\n\n${copies(8, true).join('\n\n')}`).join(), /^paragraph_loop\/fail/);
    assert.match(judged(`${prose}\n\n${copies(6, true).join(' ')}`).join(), /^sentence_loop\/fail/);
    // two such copies are a revision, not a loop
    assert.deepEqual(judged(`${prose}\n\n${copies(2, true).join('\n\n')}`), []);
  });
  it('a line said twelve times, a word of each copy replaced by one of three anywhere, fails: copies are compared two back too', () => {
    // consecutive copies differ in two places (each its own swap); each copy differs from the one two back in one or two
    const at = [3, 0, 5, 1, 6, 2, 4, 0, 3, 5, 1, 6];
    const lines = at.map((k, i) => {
      const w = 'The backup job keeps running as planned.'.split(' ');
      w[k] = ['again', 'quietly', 'late'][i % 3]!;
      return w.join(' ');
    });
    assert.match(judged(`${prose}\n\n${lines.join('\n')}`).join(), /^line_loop\/fail/);
  });
  it('declarations in one template, a new type name in each, are ok', () => {
    const types = ['Int8Array', 'Uint8Array', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array'];
    const decls = types
      .map(
        (t) =>
          `interface ${t} {\n  /** Returns the item at the given index, counting back from the end when the index is negative. */\n  at(index: number): number | undefined;\n  /** Returns a copy of this ${t} in reverse order. */\n  toReversed(): ${t};\n}`,
      )
      .join('\n\n');
    assert.deepEqual(judged(`${decls}\n`), []);
  });
  it('a counter is no new thing: "Step N:" before the same sentence is a loop', () => {
    const copies = Array.from(
      { length: 8 },
      (_, i) => `Step ${i + 3}: check that the cache is warm before the first request arrives.`,
    ).join('\n');
    assert.match(judged(`${prose}\n${copies}`).join(), /line_loop\/fail|sentence_loop\/fail/);
  });
});

describe('repetition: what the copies bring that is new', () => {
  it('a list in one template that names a new thing in each item is ok', () => {
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
    const lines = names.map((n) => `import { ${n}Handler } from './handlers/${n}.js';`).join('\n');
    assert.deepEqual(judged(`${prose}\n${lines}\n`), []);
  });
  it('test cases that vary their values are ok', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `  assert.equal(square(${i}), ${i * i});`).join('\n');
    assert.deepEqual(judged(`describe('square', () => {\n${lines}\n});\n`), []);
  });
  it('an end that keeps returning to the same paragraphs in another order fails', () => {
    const p = [
      'The first step is to measure the latency of every request.',
      'After that, look at the cache hit ratio over a full day.',
      'Finally, compare the error budget with the release calendar.',
      'In short, all three together tell you the health of the service.',
    ];
    let text = `${prose}\n\n`;
    for (let k = 0; k < 14; k++) text += `${p[(k * 3) % 4]}\n\n${p[(k * 3 + 1) % 4]}\n\n`;
    assert.match(judged(text).join(), /cycling\/fail|paragraph_loop\/fail|line_loop\/fail/);
  });
});

describe('repetition: an output that goes round the same words', () => {
  it('a short song whose chorus comes back three times between verses is no cycle', () => {
    const chorus = 'Row on, row on, the harbour lights are low,\nrow on, row on, and home is where we go.';
    const verses = [
      'We left the quay at dawn with nets and bread,\nthe gulls behind us and the sun ahead.',
      'The wind came round at noon and turned us west,\nwe pulled until our arms forgot to rest.',
      'By dusk the hold was full, the sea was kind,\nand every worry stayed a mile behind.',
    ];
    const song = verses.map((v) => `${v}\n\n${chorus}`).join('\n\n');
    assert.ok(!judged(song).some((v) => v.endsWith('/fail')), judged(song).join());
  });
});

describe('repetition: an end that restates the text', () => {
  it('a song whose long chorus follows each short verse and comes again at the end is not going back over itself', () => {
    const chorus = [
      'Chorus',
      'And we will keep on walking down the long road by the river until the morning light comes over the hill,',
      'and we will sing the old songs that our fathers taught us long ago when the world was young and still,',
      'and if the night is cold we will build a little fire and tell the stories of the ones we loved until the dawn.',
    ].join('\n');
    const verses = [
      'The kettle on the stove,\nthe dog asleep by the door,\nthe rain upon the glass,\nthe boots upon the floor,\nand nobody asks for more.',
      'My brother fixed the fence,\nmy sister fed the hens,\nwe counted all the stars,\nwe lost the count again,\nand started over then.',
      'The winter took the barn,\nthe spring gave back the field,\nwe planted what we had,\nwe mended what would yield,\nand waited for the yield.',
      'The children all grew tall,\nthe old tree lost its bark,\nwe lit the porch lamp still,\nwe left the gate ajar,\nto see them through the dark.',
      'The market town was loud,\nthe carts were full of grain,\nmy mother sold her lace,\nmy father sold his chain,\nand both came home in rain.',
      'A letter from the coast,\na postcard from the north,\na photograph of boats,\na ribbon and a cork,\nwe pinned them on the porch.',
      'And now the house is quiet,\nthe kettle still is warm,\nthe dog is old and slow,\nthe fields are safe from storm,\nthe lamp is lit as before.',
    ];
    const song = [...verses.flatMap((v, k) => [`Verse ${k + 1}\n${v}`, chorus]), chorus].join('\n\n');
    const { figures, findings } = detect('repetition', song);
    // most of its end is the chorus said a third time and more: the share that failed it at 0.5
    assert.ok(figures.restated.share > 0.65, String(figures.restated.share));
    assert.deepEqual(verdicts(findings), []);
  });
  it('an answer given again as a revised version, a few words changed, is not going back over itself', () => {
    const answer = healthyProse(700, 21)
      .split('\n')
      .filter((l) => !/[|`{}()[\];=<>]/.test(l))
      .join('\n');
    const revised = answer.replace(/\bthe\b/, 'this').replace(/\bis\b/, 'was');
    const text = `${answer}\n\nHere is the revised version, with the two fixes you asked for:\n\n${revised}`;
    const f = detect('repetition', text).figures;
    assert.ok(f.restated.at >= 0, 'the end is read as prose');
    assert.ok(f.restated.share < 0.1, `restated ${f.restated.share}`);
    assert.ok(!judged(text).includes('cycling/fail'));
    // said a third time, it is
    assert.ok(detect('repetition', `${text}\n\nAnd once more:\n\n${answer}`).figures.restated.share >= 0.6);
  });
  it('doc comments said again between declarations are code: the end is not read for restating', () => {
    const decls = Array.from(
      { length: 40 },
      (_, i) =>
        `/** Returns the index of the first element of the array where the predicate is true, or -1. */\nfindIndex${i}(predicate: (value: T${i}) => boolean): number;`,
    ).join('\n');
    const f = detect('repetition', decls).figures;
    assert.equal(f.restated.at, -1);
    assert.ok(!judged(decls).includes('cycling/fail'));
  });
});

describe('repetition: loops the text moves on from', () => {
  it('a loop of prose followed by healthy text warns; a long one fails; a few copies say nothing', () => {
    assert.deepEqual(judged(prose + sentence.repeat(12) + after), ['sentence_loop/warn']);
    assert.deepEqual(judged(prose + sentence.repeat(40) + after), ['sentence_loop/fail']);
    assert.deepEqual(judged(prose + sentence.repeat(6) + after), []);
  });
  it('rows of data repeated mid-text say nothing', () => {
    const rows = Array.from({ length: 40 }, () => '0x00, 0x00, 0x00, 0x00,').join('\n');
    assert.deepEqual(judged(`${prose}\n${rows}\n${after}`), []);
  });
});

describe('repetition figures', () => {
  it('name the unit, its copies, where it starts and its period in chars', () => {
    const text = prose + sentence.repeat(20);
    const l = detect('repetition', text).figures.tail!;
    assert.equal(l.unit, 'sentence');
    assert.ok(Math.abs(l.copies - 20) < 0.5, `copies ${l.copies}`);
    assert.equal(l.onset, prose.length);
    assert.equal(l.periodChars, sentence.length);
    assert.equal(l.newPerCopy, 0);
  });
});
