/**
 * Texts written for issue 36's loops that the rules nearly see (copies hidden by wrapping,
 * counters or a cut), and their healthy counterparts. Our own text, never corpus text.
 */

/** Wraps `text` hard at `width` chars, the first line `shift` chars shorter (each copy wrapped at other places), words cut where the width falls. */
export function hardWrap(text: string, width: number, shift = 0): string {
  const flat = text.replace(/\s+/g, ' ');
  const lines: string[] = [];
  let at = 0;
  let w = Math.max(10, width - shift);
  while (at < flat.length) {
    lines.push(flat.slice(at, at + w).trimEnd());
    at += w;
    w = width;
  }
  return lines.join('\n');
}

/** Wraps `text` at spaces within `width` chars, the first line `shift` chars shorter. */
export function wordWrap(text: string, width: number, shift = 0): string {
  const lines: string[] = [];
  let line = '';
  let w = Math.max(10, width - shift);
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > w) {
      lines.push(line);
      line = word;
      w = width;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** `copies` copies (a whole number and a part, cut mid-word) of `unit`, each made by `wrap(unit, copyIndex)`. */
function copiesOf(unit: string, copies: number, wrap: (u: string, k: number) => string, sep: string): string {
  const parts: string[] = [];
  const whole = Math.floor(copies);
  for (let k = 0; k < whole; k++) parts.push(wrap(unit, k));
  const rest = copies - whole;
  if (rest > 0) {
    const last = wrap(unit, whole);
    parts.push(last.slice(0, Math.round(rest * last.length)));
  }
  return parts.join(sep);
}

const TWO_SENTENCES =
  'The lighthouse keeper climbed the spiral stairs before dawn and polished the great lens until it shone like a second moon over the harbour. ' +
  'Every ship that passed the rocks that winter owed its safe return to the patience of one old man who never once missed his evening watch.';

/** A two-sentence unit ×2.2, hard-wrapped at 90 chars at other places in each copy (words cut where the width falls). */
export function wrappedSentences(): string {
  return copiesOf(TWO_SENTENCES, 2.2, (u, k) => hardWrap(u, 90, 17 * k), ' ');
}

/** The same, wrapped at spaces. */
export function wordWrappedSentences(): string {
  return copiesOf(TWO_SENTENCES, 2.2, (u, k) => wordWrap(u, 90, 23 * k), ' ');
}

const PARAGRAPH =
  'Our quarterly review found that the new onboarding flow reduced the time a customer needs to reach a first working dashboard, ' +
  'although the support team still reports questions about importing older spreadsheets.\n' +
  'We recommend keeping the guided tour, adding a short video about imports, and measuring the change again after the spring release.';

/** A two-line paragraph ×2.6, hard-wrapped at 80 chars at other places in each copy. */
export function wrappedParagraph(): string {
  const wrap = (u: string, k: number) =>
    u
      .split('\n')
      .map((line) => hardWrap(line, 80, 11 * k))
      .join('\n');
  return copiesOf(PARAGRAPH, 2.6, wrap, '\n\n');
}

const BLOCK_ROWS = [
  'Check the tyre pressure before leaving the garage.',
  'Pack two litres of water for each person in the car.',
  'The first stop is the bakery at the edge of the village.',
  'Buy a paper map in case the phone loses its signal.',
  'Drive north along the coast road until the lighthouse.',
  'Park behind the chapel; the meadow floods after rain.',
  'Walk the cliff path slowly, it is narrow near the gorse.',
  'Lunch is sandwiches on the bench above the little harbour.',
  'Ask the ferryman about the tide tables for tomorrow.',
  'Visit the museum of old boats if it opens after noon.',
  'Children under twelve enter free with an adult ticket.',
  'Keep an eye on the clouds over the western hills.',
  'If it rains, the tea room by the bridge has a fire.',
  'Refuel at the station next to the agricultural depot.',
  'Take the inland lane back through the oak woods.',
  'Stop at the farm shop for eggs, cheese and honey.',
  'Watch for deer crossing at dusk near the reservoir.',
  'Unload the car and hang the wet coats in the hallway.',
  'Feed the cat, who will complain loudly about the delay.',
  'Write down the mileage in the notebook in the glovebox.',
  'Charge the camera batteries for the next excursion.',
  'Plan the route to the castle ruins for Saturday.',
  'Call Aunt Rosa to confirm she can join us on Sunday.',
  'Go to bed early; the castle tour starts at eight sharp.',
];

/** A 24-row block of about 1.2 KB, then a second exact copy cut at 60% (1.6 copies). */
export function cutBlock(): string {
  const block = BLOCK_ROWS.join('\n');
  return `Here is the plan for the trip.\n\n${block}\n${block.slice(0, Math.round(0.6 * block.length))}`;
}

/** 1.6 copies of a 1 KB block of prose (a paragraph said again, cut at 60%). */
export function proseBlockCopies(): string {
  const para =
    'When the river rose in the spring of that year, the families of the lower town carried their furniture to the church on the hill. ' +
    'The priest opened the doors and the children slept between the pews while their parents took turns watching the water. ' +
    'On the third night the baker brought bread for everyone, and the old fisherman told stories about the great flood his grandfather had seen. ' +
    'By the end of the week the water went down, leaving a line of mud on every wall that the town kept for years as a reminder. ' +
    'Nobody forgot how the neighbours had shared what little they had, and every spring since then the town holds a supper in the church to remember it. ' +
    'The children who slept in the pews now bring their own children, and the baker’s grandson still bakes the bread.';
  return `${para}\n\n${para.slice(0, Math.round(0.6 * para.length))}`;
}

/** Two numbered items alternating while their counters rise, about 79% of the text after an intro. */
export function alternatingItems(): string {
  const intro =
    'Here are the steps to configure the backup job on the new storage server, together with the checks that the team asked for during the last review of the deployment.\n\n';
  let out = intro;
  for (let k = 1; k <= 6; k += 2) {
    out += `${k}. Open the configuration file and set the retention period for the nightly snapshots.\n`;
    out += `${k + 1}. Restart the service and confirm that the snapshot list shows the new retention period.\n`;
  }
  return out;
}

/** One person restated four times, the list of their interests growing each time. */
export function restatedPerson(): string {
  const interests = ['hiking', 'painting', 'chess', 'baking bread', 'astronomy', 'learning Portuguese', 'restoring old bicycles'];
  let out = 'Here is a short profile of the new volunteer.\n\n';
  for (let k = 0; k < 4; k++) {
    const list = interests.slice(0, 3 + k).join(', ');
    out += `Maria Santos is a retired schoolteacher from Porto who volunteers at the city library every weekend. She enjoys ${list}, and she is known for her warm sense of humour and her patience with children.\n\n`;
  }
  return out.trimEnd();
}

const NOUNS =
  'apple anchor basket bridge candle castle dragon engine feather forest garden guitar hammer harbour island jacket kettle ladder lantern meadow mirror needle orchard pebble pencil pillow planet pocket rabbit ribbon saddle shadow shovel spider statue tiger tunnel velvet violin wagon whistle window wizard yacht zebra acorn badge barrel beacon blanket bottle bucket button cabin camera canyon carpet cactus chimney cloud compass cottage crayon crown cushion desert diamond dolphin drum eagle elbow falcon fence fiddle flag flute fountain funnel glacier goblet harp helmet hive horn igloo jewel kayak kite koala lemon lizard locket magnet maple marble mitten monkey mountain mushroom napkin nest novel oak oar olive onion otter owl paddle palace parrot peach pepper piano pigeon pirate pizza plum pond puppet quilt raft rainbow raven rocket rose ruby sail salmon scarf scooter seal sheep shell shield skate sled sock sparrow spoon squirrel star stone stove sugar swan sword table teapot tent thimble thistle thunder ticket toaster tomato torch tractor trumpet tulip turtle umbrella unicorn valley vase vine volcano walnut walrus wheel willow wolf wreath yarn'.split(
    ' ',
  );

/** About 300 one-line items "A <noun>." running to the token limit. */
export function nounList(): string {
  const lines: string[] = ['Things you might find in a story:'];
  for (let k = 0; k < 300; k++) lines.push(`A ${NOUNS[(k * 7) % NOUNS.length]}.`);
  return lines.join('\n');
}

/** A numbered list of similar items with distinct content (healthy). */
export function distinctList(): string {
  const lines: string[] = ['Twenty ideas for a rainy afternoon with children:'];
  const ideas = [
    'Build a blanket fort in the living room and read stories inside it with a torch.',
    'Bake oatmeal cookies together and let the children measure the flour and sugar.',
    'Make a treasure map of the house and hide a small prize behind the bookshelf.',
    'Paint smooth stones from the garden and turn them into ladybirds or little monsters.',
    'Put on a puppet show with old socks, buttons and a cardboard box for the stage.',
    'Plant cress seeds on wet cotton wool and measure how tall they grow each day.',
    'Write a short newspaper about the family, with a weather report and a sports page.',
    'Have an indoor picnic on the floor with sandwiches cut into funny shapes.',
    'Sort the toy box by colour and donate the toys nobody plays with any more.',
    'Learn three simple card games and hold a small tournament with paper medals.',
    'Record a radio play on a phone, with sound effects made from kitchen tools.',
    'Fold paper boats and race them in the bathtub using a straw to blow them along.',
    'Make a bird feeder from a pine cone, peanut butter and seeds for the garden.',
    'Draw a comic strip about the cat and staple the pages into a little book.',
    'Build the tallest tower you can from plastic cups and measure it with a ruler.',
    'Dance to a playlist where everyone freezes like a statue when the music stops.',
    'Write letters to grandparents and decorate the envelopes with stickers.',
    'Do a jigsaw puzzle and time how long each section takes to finish.',
    'Try simple science: mix baking soda and vinegar in a bottle to blow up a balloon.',
    'Make a family photo album and write one memory under every picture.',
  ];
  ideas.forEach((idea, i) => {
    lines.push(`${i + 1}. ${idea}`);
  });
  return lines.join('\n');
}

/** A CSV table of readings (healthy: rows share a template by design). */
export function csvTable(): string {
  const rows = ['date,station,temperature_c,humidity_pct,wind_kmh'];
  for (let d = 1; d <= 60; d++) {
    const t = (12 + ((d * 37) % 11) + ((d * 13) % 7) / 10).toFixed(1);
    rows.push(`2024-03-${String((d % 28) + 1).padStart(2, '0')},north-${(d % 3) + 1},${t},${40 + ((d * 29) % 45)},${(d * 17) % 30}`);
  }
  return rows.join('\n');
}

/** A long story with a refrain after each part (healthy). */
export function storyWithRefrain(): string {
  const refrain = 'And the wind kept singing over the hills, the way it always had.';
  const parts = [
    'Anna left the village at sunrise with a loaf of bread and her father’s old map. The road wound past the mill and the orchard where she used to climb trees with her brother.',
    'By noon she reached the river. The ferryman asked for a coin, but she had none, so she offered to mend his torn net, and he carried her across without another word.',
    'In the forest she met a fox who claimed to know a shortcut. She laughed, thanked him, and kept to the path her father had marked in faded red ink.',
    'At dusk the tower appeared above the pines. Its windows were dark, except for one candle on the highest floor, flickering as if someone had been waiting for years.',
    'Inside she found her grandmother’s letters, tied with a blue ribbon, and read them one by one until the candle burned down and the first birds began to sing.',
    'She walked home the next morning with the letters in her bag, and when the village saw her on the hill, the children ran out to meet her at the gate.',
  ];
  return parts.map((p) => `${p}\n${refrain}`).join('\n\n');
}

/** A poem with a chorus of four lines sung twice (healthy). */
export function poemWithChorus(): string {
  const chorus =
    'Oh the lanterns on the water,\nOh the lanterns in the rain,\nEvery light a little promise\nThat the boats will come again.';
  return [
    'The fishermen are leaving\nBefore the town can wake,\nTheir nets are full of silver\nAnd the cold is hard to take.',
    chorus,
    'The wives are at the window,\nThe children on the stair,\nThe baker leaves a loaf out\nFor the ones who are not there.',
    chorus,
    'And when the tide is turning\nAnd the gulls begin to call,\nThe harbour lights its candles\nOn the long grey sea wall.',
  ].join('\n\n');
}
