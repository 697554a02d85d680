/**
 * The cycling detector on its own: answers that end going round the same few lines,
 * sentences or paragraphs (not back to back with a clean period, and not copied from any
 * corpus: every text is written here in the shape of real collapses), next to healthy
 * texts that repeat by nature and must stay quiet; then the detector contract (any split
 * gives the same figures, snapshots change nothing).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCyclingDetector } from '../../../src/core/detectors/cycling.js';
import { runDetector } from '../../../src/core/detectors/runDetector.js';
import { assertSplitInvariant } from '../../helpers/detectorHarness.js';

const INTRO =
  'Here is a plan for three days in the lake district, starting from the station.\n\n' +
  '**Day 1: Arrival**\n\n* Morning: take the early train and leave your bags at the guesthouse.\n' +
  '* Afternoon: walk along the western shore to the old boathouse and the tea room.\n' +
  '* Evening: dinner at the inn by the bridge, which serves trout from the lake.\n\n' +
  '**Day 2: The fells**\n\n* Morning: climb the ridge path while the air is still cool.\n' +
  '* Afternoon: descend by the waterfall and rest at the village green.\n' +
  '* Evening: a concert in the chapel if the season allows it.\n\n' +
  '**Day 3: Departure**\n\n* Morning: a short boat trip to the island with the ruined priory.\n' +
  '* Afternoon: the slow train back, with a stop for the market town.\n\n' +
  'Enjoy the trip, pack layers for the changing weather and book rooms early in summer.\n\n';

const rounds = (block: string, n: number): string => block.repeat(n);

/** Farewell lines in several languages, then the same block again and again (the shape of a real collapse). */
const FAREWELLS =
  [
    '**Goodbye, lakes!**',
    '**Auf Wiedersehen, Seen!**',
    '**Au revoir, les lacs!**',
    '**Arrivederci, laghi!**',
    '**Adiós, lagos!**',
    '**Lakes, fells and villages - we will miss you!**',
  ].join(' \n\n') + ' \n\n';

/** Variable definitions with comments, whose order shifts from round to round. */
function shiftingDefinitions(roundsN: number): string {
  const pairs = [
    '# Define the route as a list of stops\nroute = []\n\n',
    '# Define the speed as a float\nspeed = 0.0\n\n',
    '# Define the index as an integer\nindex = 0\n\n',
    '# Define the stops as a list of names\nstops = []\n\n',
    '# Define the legs as a list of pairs\nlegs = []\n\n',
  ];
  let s = '```python\nfrom routing import Planner\n\nplanner = Planner()\n\n';
  for (let r = 0; r < roundsN; r++) for (let i = 0; i < pairs.length; i++) s += pairs[(i * (1 + (r % 2)) + r) % pairs.length]!;
  return s;
}

/** A JSON block and a line of the prompt, again and again with no blank line between. */
function jsonAndPrompt(roundsN: number): string {
  const block =
    '{\n"1": {\n"rating": 4,\n"label": "good"\n},\n"2": {\n"rating": 2,\n"label": "poor"\n},\n"3": {\n"rating": 5,\n"label": "great"\n}\n}';
  return Array.from({ length: roundsN }, () => block).join('Now add the date of each review to the JSON output.');
}

const PARA_A = 'the old man sits by the gate, he waits, he counts, he smiles. no one comes, only wind, only dust, only the long road.';
const PARA_B = '"bread, warm bread!" he calls, soft like rain over the square. children look, children listen, but nobody buys today.';

const SONG =
  'Verse one walks down to the harbour where the boats come in at night,\nthe lanterns swing and the gulls are calling out of sight.\n\n' +
  'Chorus:\nOh, carry me home on the evening tide,\ncarry me home with the sea at my side,\nthe lights of the town will be my guide,\ncarry me home on the evening tide.\n\n' +
  'Verse two the nets are mended and the kettle starts to sing,\nmy mother at the window waits for what the waves will bring.\n\n' +
  'Chorus:\nOh, carry me home on the evening tide,\ncarry me home with the sea at my side,\nthe lights of the town will be my guide,\ncarry me home on the evening tide.\n\n' +
  'Bridge: and if the storm should find us, we will ride it to the shore,\nwe have weathered worse before, we have weathered worse before.\n\n' +
  'Chorus:\nOh, carry me home on the evening tide,\ncarry me home with the sea at my side,\nthe lights of the town will be my guide,\ncarry me home on the evening tide.\n\n' +
  'Chorus:\nOh, carry me home on the evening tide,\ncarry me home with the sea at my side,\nthe lights of the town will be my guide,\ncarry me home on the evening tide.\n';

/** Tests with the same boilerplate in every case and a different name, route and value. */
function testFile(cases: number): string {
  let s = "import { test } from 'node:test'\nimport { build } from './helper.js'\n\n";
  for (let i = 0; i < cases; i++) {
    s +=
      `test('route ${i} answers with its own payload', async (t) => {\n` +
      '  t.plan(2)\n' +
      '  const app = build()\n' +
      `  app.get('/item/${i}', async () => ({ id: ${i}, name: 'item-${i}' }))\n` +
      `  const res = await app.inject({ method: 'GET', url: '/item/${i}' })\n` +
      '  t.assert.strictEqual(res.statusCode, 200)\n' +
      `  t.assert.deepStrictEqual(res.json(), { id: ${i}, name: 'item-${i}' })\n` +
      '})\n\n';
  }
  return s;
}

const PROSE_TAIL =
  'After the trip it is worth writing down what worked. The guesthouse was quiet and clean, ' +
  'the ridge path was steeper than the guide suggested, and the boat to the island only runs twice ' +
  'a day outside the summer months. Next time a bicycle would make the western shore easier, and ' +
  'the market town deserves a full afternoon rather than a stop between trains. The inn by the bridge ' +
  'was the best meal of the week; the chapel concert was sold out, so book it ahead. Trains were on ' +
  'time except on the last day, when engineering works added a bus between two stations.\n\n' +
  'For families the island is the highlight: the priory ruins are safe to explore, there is a small ' +
  'museum with a model of the abbey as it stood, and the café sells lunch boxes for the crossing. ' +
  'Walkers may prefer the eastern ridge, which is longer but has views over three lakes at once, and ' +
  'photographers should wait for the evening light on the water below the boathouse.\n';

describe('cycling detector: collapses that go round and round to the end fail', () => {
  it('farewell lines in five languages, the same block again and again', () => {
    const text = INTRO + FAREWELLS + rounds(FAREWELLS, 12);
    const { figures, findings } = runDetector(createCyclingDetector(), text);
    assert.equal(findings.length, 1, JSON.stringify(figures));
    assert.equal(findings[0]!.kind, 'cycling');
    assert.equal(findings[0]!.severity, 'fail');
    // the cycle starts at its first copy, right after the itinerary
    assert.equal(findings[0]!.atChar, INTRO.length);
    assert.equal(figures.cycleUnits, 6);
    assert.ok(figures.cycleReturns >= 10, String(figures.cycleReturns));
    assert.match(findings[0]!.detail, /comes round \d+ times in the last \d+ chars/);
    // verbatim rounds: a collapse even when the model ended the text itself
    assert.equal(runDetector(createCyclingDetector(), text, { finishReason: 'stop' }).findings[0]?.severity, 'fail');
  });

  it('comment + definition pairs whose order shifts each round (no clean period)', () => {
    const text = shiftingDefinitions(10);
    const { figures, findings } = runDetector(createCyclingDetector(), text);
    assert.equal(findings[0]?.severity, 'fail', JSON.stringify(figures));
    assert.ok(figures.cycleFollowShare < 0.9, 'the order is not kept, yet it cycles');
  });

  it('a JSON block and a prompt line, glued together without blank lines', () => {
    const { figures, findings } = runDetector(createCyclingDetector(), jsonAndPrompt(9));
    assert.equal(findings[0]?.severity, 'fail', JSON.stringify(figures));
  });

  it('two short paragraphs taking turns, four times each (about 1 KB, an issue paste)', () => {
    const text = Array.from({ length: 4 }, () => `${PARA_A}\n\n${PARA_B}\n\n`).join('') + PARA_A.slice(0, 40);
    const { figures, findings } = runDetector(createCyclingDetector(), text);
    assert.equal(findings[0]?.severity, 'fail', JSON.stringify(figures));
    assert.equal(findings[0]!.atChar, 0);
  });

  it('sentences cycling inside one long line (no line breaks at all)', () => {
    const s = [
      'The river is calm tonight.',
      'The bridge is old and narrow.',
      'The lamps are lit along the quay.',
      'The last ferry has gone.',
    ];
    let text = 'A short story about the town by the river. It begins quietly. ';
    for (let r = 0; r < 12; r++) text += (r % 2 ? [s[1], s[0], s[3], s[2]] : s).join(' ') + ' ';
    const { figures, findings } = runDetector(createCyclingDetector(), text);
    assert.equal(findings[0]?.severity, 'fail', JSON.stringify(figures));
  });

  it('a short cycle (three copies, ~470 chars after the first) fails only when the token limit cut it', () => {
    const block = `${PARA_A}\n${PARA_B}\n`;
    const text = PROSE_TAIL + block + block + block + block.slice(0, 60);
    assert.deepEqual(runDetector(createCyclingDetector(), text).findings, []);
    const cut = runDetector(createCyclingDetector(), text, { finishReason: 'length' });
    assert.equal(cut.findings[0]?.severity, 'fail', JSON.stringify(cut.figures));
    assert.match(cut.findings[0]!.detail, /token limit/);
  });
});

describe('cycling detector: healthy repetition stays quiet', () => {
  const quiet: [string, string][] = [
    ['a song whose chorus comes back four times, with verses and a bridge between', SONG],
    ['a test file: the same boilerplate in every case, a new name and value each time', testFile(40)],
    [
      'an example shown twice (ESM and CommonJS) and nothing after',
      PROSE_TAIL + 'ESM:\n\n' + jsonAndPrompt(1) + '\n\nCommonJS:\n\n' + jsonAndPrompt(1) + '\n',
    ],
    ['a cycle the text moved on from', INTRO + rounds(FAREWELLS, 6) + PROSE_TAIL + PROSE_TAIL.replace(/the/g, 'our')],
    [
      'a CSV file of many similar rows',
      'date,station,city,min,max\n' +
        Array.from(
          { length: 300 },
          (_, i) =>
            `2026-03-${String(1 + (i % 28)).padStart(2, '0')},ST${100 + (i % 9)},${['Lisbon', 'Porto', 'Faro'][i % 3]},${(i * 7) % 13}.${i % 10},${(i * 5) % 31}.${i % 7}`,
        ).join('\n') +
        '\n',
    ],
    [
      'a markdown table with repeated cells',
      '| Day | Morning | Afternoon |\n|---|---|---|\n' +
        Array.from({ length: 60 }, (_, i) => `| ${i + 1} | Rest | ${i % 2 ? 'Run 5 km' : 'Swim 1 km'} |`).join('\n') +
        '\n',
    ],
    [
      'prose that ends with a closing line it used before',
      PROSE_TAIL + 'Have a good trip!\n\n' + PROSE_TAIL.replace(/a /g, 'one ') + 'Have a good trip!\n',
    ],
  ];
  for (const [name, text] of quiet) {
    it(name, () => {
      const { figures, findings } = runDetector(createCyclingDetector(), text);
      assert.deepEqual(findings, [], JSON.stringify(figures));
    });
  }

  it('lines of only punctuation never count (`}`, `---`, table rules)', () => {
    const text = PROSE_TAIL + '}\n'.repeat(200) + '---\n'.repeat(100);
    const { figures } = runDetector(createCyclingDetector(), text);
    assert.equal(figures.cycleChars, 0);
  });
});

describe('cycling detector: contract', () => {
  const texts = [
    INTRO + FAREWELLS + rounds(FAREWELLS, 12),
    shiftingDefinitions(8),
    jsonAndPrompt(6),
    SONG,
    testFile(12),
    '中文句子。第二句！还有问题？' + '中文句子。第二句！'.repeat(30),
    'Emoji 😀 lines\r\nwith CRLF.\r\n'.repeat(20) + 'Done. Next! Why? Yes.\tTab. End',
  ];

  it('gives the same figures for any split of the text, and snapshots mid-way change nothing', () =>
    assertSplitInvariant(createCyclingDetector, texts, 7));

  it('keeps bounded state, yet places a cycle longer than its 8 K window where it began', () => {
    // 400 KB of distinct lines (far more than the table and ring hold), then a 10 KB cycle.
    let text = '';
    for (let i = 0; text.length < 400_000; i++)
      text += `Line ${i} of the log says that worker ${i % 97} finished job ${i * 7919} in ${i % 13} seconds.\n`;
    const tail = rounds(`${PARA_A}\n${PARA_B}\n`, 40);
    const { figures, findings } = runDetector(createCyclingDetector(), text + tail);
    assert.equal(findings[0]?.severity, 'fail');
    assert.equal(findings[0]!.atChar, text.length, 'the first copy');
    assert.equal(figures.cycleUnits, 4, 'two paragraphs of two sentences');
    assert.ok(figures.cycleChars > 8000, String(figures.cycleChars));
  });
});
