/**
 * The garble detector on its own: short gibberish, word salad, leaked special tokens, odd
 * chars and script switches, in the shapes real broken outputs take (texts written here, not
 * copied from any corpus), next to healthy look-alikes that must stay quiet; then the
 * detector contract (any split, snapshots change nothing).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGarbleDetector, repeatsFragment } from '../../../src/core/detectors/garble.js';
import { runDetector } from '../../../src/core/detectors/runDetector.js';
import type { FindingKind, Severity } from '../../../src/core/finding.js';

interface Case {
  name: string;
  text: string;
  /** Kind and severity expected; null: no finding at all. */
  expect: { kind: FindingKind; severity: Severity } | null;
  finishReason?: string | null;
}

const fail = (kind: FindingKind) => ({ kind, severity: 'fail' as const });
const warn = (kind: FindingKind) => ({ kind, severity: 'warn' as const });

const DEGENERATE: Case[] = [
  // --- word salad: capitalised and lower-case words strung with no function word, no punctuation
  {
    name: 'salad of unrelated words (spec-decoding draft mismatch)',
    text: 'HarborMoscowti ZRN PLAT elbows Financial Orvin sneeze Bristol',
    expect: fail('word_salad'),
  },
  {
    name: 'multilingual token salad after a normal opening',
    text: 'Glad you asked. Regierung splendid вообще teaspoon 参数, Schwarz pequeño lighthouse Parliament Kontrola następ Bollywood, ancellor',
    expect: fail('word_salad'),
  },
  {
    name: 'capitalised salad with one lower-case word',
    text: 'Gravel Quantum orbit TRANS Meridian Velcro Pillar Lantern Dorset',
    expect: fail('word_salad'),
  },
  {
    name: 'longer salad, a few stray function words',
    text: 'Tractor velvet Quebec ointment Ministry of lantern sorbet Glacier pebble Hanover turnip orchestra Nimbus walrus Plexus drizzle',
    expect: fail('word_salad'),
  },
  // --- gibberish: glued fragments, broken bytes, mixed scripts
  {
    name: 'abbreviations glued and doubled',
    text: 'The main.py\n```\n\n##2. ctxctxramfastlya\n\nIsTorun_across8layer:\n',
    expect: fail('gibberish'),
  },
  {
    name: 'U+FFFD mid-word and a fragment repeated through a word',
    text: ' \ufffdvaôrelkasrelkasvorelkasumbyrelkasfeet',
    expect: fail('gibberish'),
  },
  {
    name: 'broken decode: U+FFFD glued to CJK and Latin, Cyrillic glued to Latin',
    text: 'So医院\ufffd\ufffd门QQRTA了以\ufffd.MaxiQQBrn 山水 “\ufffdtion在桌子\ufffd scarce\ufffdмаршрутK devlog用量 kirQQDom4XRTнос yearsQQ 公司 important',
    expect: fail('gibberish'),
  },
  { name: 'control chars in a short answer', text: 'The result is\u0007 \u0002ready\u0010 now.', expect: fail('gibberish') },
  { name: 'lone surrogates', text: 'Answer: \ud800x \udc00y \ud801z', expect: fail('gibberish') },
  {
    name: 'words glued without spaces (weak alone)',
    text: 'Thecapitalcityofthecountryisparisandithasmanymuseums Itisalsoknownforitsfoodandwineandfashion',
    expect: warn('gibberish'),
  },
  {
    name: 'words glued without spaces and a broken char',
    text: 'Thecapitalcityofthecountryisparis\ufffdandithasmanymuseums Itisalsoknownforitsfoodandwine',
    expect: fail('gibberish'),
  },
  // --- special tokens
  { name: 'pad token spliced into symbol soup', text: ';7?!42=9K%<\uff5c\u2581pad\u2581\uff5c>-QX', expect: fail('special_tokens') },
  { name: 'run of [PAD]', text: 'Hello[PAD][PAD][PAD][PAD]', expect: fail('special_tokens') },
  { name: 'run of <unk>', text: '<unk><unk><unk>', expect: fail('special_tokens') },
  { name: 'byte-fallback tokens', text: 'The sign is <0xE2><0x82><0xAC> here', expect: fail('special_tokens') },
  {
    name: 'model runs past its turn (ChatML)',
    text: 'Paris is the capital of France.<|im_end|>\n<|im_start|>user\nAnd Spain?<|im_end|>\n<|im_start|>assistant\nMadrid.',
    expect: fail('special_tokens'),
  },
  {
    name: 'Llama-3 headers leaked',
    text: 'Sure.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nThanks<|eot_id|>',
    expect: fail('special_tokens'),
  },
  {
    name: 'SentencePiece spaces leaked',
    text: '\u2581The\u2581capital\u2581of\u2581France\u2581is\u2581Paris',
    expect: fail('special_tokens'),
  },
  { name: 'byte-BPE spaces leaked', text: 'The\u0120capital\u0120of\u0120France\u0120is\u0120Paris.', expect: fail('special_tokens') },
  {
    name: 'long text with leaked turns',
    text: 'A healthy paragraph about rivers and their deltas. '.repeat(40) + '</s><s>[INST] next question [/INST] more',
    expect: fail('special_tokens'),
  },
  // --- script switch in a short answer
  {
    name: 'English then Chinese',
    text: 'If the band had never formed, popular music would have developed differently. 流行音乐的历史将会完全不同，许多后来的乐队也不会受到他们的影响，录音技术的发展可能会更慢。',
    expect: fail('script_switch'),
  },
  {
    name: 'English then Chinese after a colon, unannounced',
    text: 'Of course, the short answer is this: 我们应该先检查网络连接，然后重新启动路由器，如果问题仍然存在就联系服务提供商。',
    expect: fail('script_switch'),
  },
  {
    name: 'English then Korean',
    text: 'The average person blinks about fifteen times a minute. 평균적인 사람은 1분에 약 15번 눈을 깜빡이며, 이는 하루에 수만 번에 해당합니다.',
    expect: fail('script_switch'),
  },
  {
    name: 'English then Cyrillic mid-sentence',
    text: 'The best way to learn is практика и терпение, потому что язык требует времени и постоянной практики каждый день.',
    expect: fail('script_switch'),
  },
  {
    name: 'English then Cyrillic',
    text: 'Film photography has a distinct look that many enjoy. Плёнка даёт особое зерно и цвет, которые сложно повторить цифровой камерой, поэтому многие фотографы её любят.',
    expect: fail('script_switch'),
  },
  // --- a long answer that ends in garble: the last 1 KB is judged like a short text
  {
    name: 'long answer ending in mixed-script glue',
    text:
      'Rivers carry sediment to the sea, and their deltas grow over centuries. '.repeat(40) +
      'Hinweisж nobodyЉ Unterscheidungж everybodyЉ Hinweisж archiviЉ nobody Hinweisж',
    expect: fail('gibberish'),
  },
  {
    name: 'long answer ending in word salad',
    text:
      'Rivers carry sediment to the sea, and their deltas grow over centuries. '.repeat(40) +
      'Tractor velvet Quebec ointment Ministry lantern sorbet Glacier pebble Hanover turnip orchestra Nimbus walrus Plexus drizzle Kettle marble Oslo',
    expect: fail('word_salad'),
  },
  // --- odd chars in a long text (any length)
  {
    name: 'burst of broken chars in a long text',
    text:
      'Plain healthy prose goes on here without trouble. '.repeat(30) +
      'Then: caf\ufffd\ufffd na\ufffd\ufffdve r\ufffd\ufffdsum\ufffd\ufffd \ufffd\ufffd\ufffd\ufffd done.',
    expect: fail('gibberish'),
  },
];

const HEALTHY: Case[] = [
  { name: 'one-word answer', text: 'Paris.', expect: null },
  { name: 'short sentence', text: 'The capital of France is Paris.', expect: null },
  {
    name: 'code with identifiers',
    text: '```js\nconst el = document.getElementById("app");\nconst n: uint64_t = 0;\n```\nThis finds the element by its id.',
    expect: null,
  },
  { name: 'bare code line', text: 'const handler = createRequestHandler(serverOptions, loggerFactory, metricsRegistry)', expect: null },
  {
    name: 'hash, base64, UUID, URL',
    text: 'SHA-256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\nbase64: SGVsbG8gV29ybGQhIFRoaXMgaXMgYSB0ZXN0Lg==\nid: 550e8400-e29b-41d4-a716-446655440000\nhttps://example.com/docs/getting-started?lang=en#installationinstallation',
    expect: null,
  },
  { name: 'CSV', text: 'id,name,price,category\n1,Apple,0.50,fruit\n2,Banana,0.25,fruit\n3,Carrot,0.10,vegetable\n', expect: null },
  { name: 'math', text: 'x^2 + 3x - 4 = 0\n(x + 4)(x - 1) = 0\nx = -4 or x = 1', expect: null },
  { name: 'chemical formulas', text: 'C6H12O6 + 6O2 → 6CO2 + 6H2O + energy (about 2870 kJ/mol)', expect: null },
  {
    name: 'Japanese answer with Latin terms',
    text: '東京は日本の首都です。人口は約1400万人で、世界有数の大都市です。JRやMetroなどの交通機関が発達しており、AI技術の研究も盛んです。',
    expect: null,
  },
  {
    name: 'Korean answer with Latin words glued to particles',
    text: 'Python을 사용하면 데이터 분석이 쉽습니다. API를 호출하여 결과를 JSON으로 받을 수 있습니다.',
    expect: null,
  },
  { name: 'Chinese with English glued in', text: '我们可以用Python写一个简单的HTTP服务器，然后用curl测试它。', expect: null },
  {
    name: 'translation announced',
    text: 'Here is the translation of your sentence into Chinese:\n\n猫坐在桌子上，看着窗外的鸟。它一整天都很安静，只是偶尔叫一声。',
    expect: null,
  },
  {
    name: 'an example in Japanese, announced',
    text: 'In Japanese, a polite way to say it would be 東京は日本の首都であり、多くの人が住んでいます。',
    expect: null,
  },
  {
    name: 'bilingual glossary',
    text: 'apple — яблоко\nbook — книга\nhouse — дом\nwater — вода\nfriend — друг\nmorning — утро\n',
    expect: null,
  },
  {
    name: 'greetings in many scripts',
    text: 'Hello in several languages: Hello (English), Привет (Russian), 你好 (Chinese), こんにちは (Japanese), 안녕하세요 (Korean), مرحبا (Arabic), Γειά σου (Greek).',
    expect: null,
  },
  { name: 'emoji', text: 'Great job on the launch! 🎉🎉🎉 Keep it up 💪🔥', expect: null },
  { name: 'names with commas', text: 'Alice, Bob, Carol, Dave, Eve, Frank, Grace, Heidi, Ivan, Judy', expect: null },
  { name: 'names one per line', text: 'Alice Johnson\nBob Smith\nCarol White\nDave Brown\nEve Black\nFrank Green\n', expect: null },
  { name: 'title-case headline', text: 'Scientists Discover Large Underground Lake Beneath Martian South Pole Region', expect: null },
  { name: 'lower-case keyword line', text: 'python java rust go kotlin swift ruby perl haskell', expect: null },
  {
    name: 'Mississippi and friends',
    text: 'Mississippi, Mississippians and barbarianism are long words; subsubsections too.',
    expect: null,
  },
  {
    name: 'a famous long word, once',
    text: 'The longest word in major dictionaries is pneumonoultramicroscopicsilicovolcanoconiosis.',
    expect: null,
  },
  { name: 'a long word as the whole answer', text: 'Antidisestablishmentarianism.', expect: warn('gibberish') },
  {
    name: 'German compounds listed (warns at most)',
    text: 'Öffentlichkeitsarbeit Rechtsschutzversicherungsgesellschaften Donaudampfschifffahrtsgesellschaftskapitän',
    expect: warn('gibberish'),
  },
  { name: 'German compound', text: 'Das Wort Rechtsschutzversicherungsgesellschaften ist ein langes deutsches Wort.', expect: null },
  { name: 'test string fully periodic', text: 'Input: s = "abcabcabcabcabc", the answer is 3.', expect: null },
  { name: 'markdown anchor slug', text: 'See [merge(schemas, schemas)](#mergeschemasschemas-options) below.', expect: null },
  {
    name: 'chat template explained in code',
    text: 'ChatML wraps each turn: `<|im_start|>user` then the message, then `<|im_end|>`.\n```\n<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n```',
    expect: null,
  },
  { name: 'stop token left at the very end', text: 'The capital of France is Paris.</s>', expect: null },
  { name: 'end-of-turn marker at the end, then blank', text: 'Done, the file is saved.<|im_end|>\n\n', expect: null },
  { name: 'HTML strikethrough', text: 'Price: <s>$20</s> $15 today only, and <s>old</s> new label.', expect: null },
  { name: 'sparkline blocks', text: 'Load over the week: ▁▂▃▅▇▅▃▂▁ with a peak on Thursday.', expect: null },
  { name: 'Maltese', text: "Il-Ġermanja hija pajjiż fl-Ewropa. Iċ-ċentru ta' Ġużeppi huwa fil-belt.", expect: null },
  {
    name: 'U+FFFD mentioned on its own',
    text: 'When bytes are not valid UTF-8, decoders show the replacement char � instead.',
    expect: null,
  },
  { name: 'units with Greek letters', text: 'The resistor is 4.7kΩ and the delay is 20μs at 25°C.', expect: null },
  {
    name: 'Greek prose (function words not listed)',
    text: 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου με συνεχή κατοίκηση εδώ και χιλιάδες χρόνια.',
    expect: null,
  },
  {
    name: 'Vietnamese prose',
    text: 'Hà Nội là thủ đô của Việt Nam và là thành phố lớn thứ hai của đất nước sau Thành phố Hồ Chí Minh với nhiều di tích lịch sử nổi tiếng.',
    expect: null,
  },
  {
    name: 'Polish prose',
    text: 'Warszawa jest stolicą Polski oraz największym miastem kraju położonym nad Wisłą w centralnej części Niziny Mazowieckiej.',
    expect: null,
  },
  {
    name: 'Turkish prose',
    text: 'Ankara Türkiye Cumhuriyeti nin başkenti olup ülkenin en kalabalık ikinci şehridir ve İç Anadolu Bölgesi nde yer alır.',
    expect: null,
  },
  {
    name: 'Russian answer',
    text: 'Москва — столица России. Это крупнейший город страны с населением более двенадцати миллионов человек.',
    expect: null,
  },
  {
    name: 'Hindi answer with English terms',
    text: 'Python एक लोकप्रिय प्रोग्रामिंग भाषा है। इसका उपयोग data science और web development में होता है।',
    expect: null,
  },
  {
    name: 'Chinese answer then code after a colon',
    text: '下面是一个简单的例子：\n```python\nprint("hello world")\nfor i in range(10):\n    print(i * i)\n```',
    expect: null,
  },
  { name: 'short English opener then Chinese', text: 'Sure! 这是你要的答案：巴黎是法国的首都，也是最大的城市。', expect: null },
  {
    name: 'BERT tokens explained in prose',
    text: 'BERT puts [CLS] in front of every input, [SEP] between the two sentences, and replaces some words with [MASK] or <mask>.',
    expect: null,
  },
  {
    name: 'a pad token mentioned once',
    text: 'Shorter sequences are filled with [PAD] up to the batch length.',
    expect: warn('special_tokens'),
  },
];

function check(c: Case): void {
  const { findings } = runDetector(createGarbleDetector(), c.text, { finishReason: c.finishReason ?? null });
  if (c.expect === null) {
    assert.deepEqual(
      findings.map((f) => `${f.severity} ${f.kind}: ${f.detail}`),
      [],
      c.name,
    );
    return;
  }
  const want = c.expect;
  const got = findings.find((f) => f.kind === want.kind);
  assert.ok(got, `${c.name}: no ${want.kind} finding; got ${JSON.stringify(findings.map((f) => `${f.severity} ${f.kind}`))}`);
  assert.equal(got.severity, want.severity, `${c.name}: ${got.detail}`);
  if (want.severity === 'warn') assert.ok(!findings.some((f) => f.severity === 'fail'), `${c.name}: nothing may fail`);
  assert.ok(got.atChar >= -1 && got.atChar < Math.max(1, c.text.length), `${c.name}: atChar ${got.atChar}`);
  assert.ok(got.detail.length > 0);
}

describe('garble detector: degenerate shapes', () => {
  for (const c of DEGENERATE) it(c.name, () => check(c));
});

describe('garble detector: healthy look-alikes stay quiet', () => {
  for (const c of HEALTHY) it(c.name, () => check(c));
});

describe('garble detector: rules in detail', () => {
  it('finds a fragment repeated inside a word only when it is no syllable or comes three times', () => {
    assert.equal(repeatsFragment('llmllmcpuselessa'), true);
    assert.equal(repeatsFragment('zuimersimerszuimersuggyimers'), true);
    assert.equal(repeatsFragment('subsubsection'), false);
    assert.equal(repeatsFragment('mississippians'), false);
    assert.equal(repeatsFragment('abcabcabcabc'), false);
    assert.equal(repeatsFragment('deadbeefdeadbeef'), false);
    assert.equal(repeatsFragment('hahahahahahaha'), false);
  });

  it('places findings where the garble starts', () => {
    const text = 'Fine start of a sentence.<unk><unk>';
    const { findings } = runDetector(createGarbleDetector(), text);
    assert.equal(findings[0]?.atChar, text.indexOf('<unk>'));
  });

  it('judges a short text whole and a long one by its last 1 KB', () => {
    const salad = 'HarborMoscowti ZRN PLAT elbows Financial Orvin sneeze Bristol';
    const prose = 'This is a normal sentence that goes on for a while. ';
    assert.equal(runDetector(createGarbleDetector(), salad).findings.length, 1);
    // a text that ends in salad fails whatever came before; one that goes on after it is a text
    assert.equal(runDetector(createGarbleDetector(), prose.repeat(20) + salad).findings[0]?.kind, 'word_salad');
    assert.deepEqual(runDetector(createGarbleDetector(), prose.repeat(10) + salad + '. ' + prose.repeat(10)).findings, []);
    // a salad in the middle of a long text is past the tail
    assert.deepEqual(runDetector(createGarbleDetector(), prose.repeat(40) + salad + ' ' + prose.repeat(40)).findings, []);
    const tail = runDetector(createGarbleDetector(), prose.repeat(60) + salad.repeat(3));
    assert.equal(tail.findings[0]?.kind, 'word_salad');
    assert.ok(tail.figures.from > 2000);
    assert.deepEqual(
      runDetector(createGarbleDetector(), prose.repeat(60) + salad.repeat(3), { thresholds: { garbleTailRules: 0 } }).findings,
      [],
    );
  });

  it('counts special tokens inside code as mentions, not leaks', () => {
    const { figures } = runDetector(createGarbleDetector(), 'Use `<|endoftext|>` and\n```\n<pad><pad>\n```\nnothing else.');
    assert.equal(figures.specialTokens, 0);
    assert.equal(figures.specialTokensInCode, 3);
  });

  it('thresholds decide: raising them quiets each rule', () => {
    const off = {
      garbleShortMaxChars: 0,
      garbleTailRules: 0,
      garbleOddBurstFail: 1e9,
      garbleSpecialTokensFail: 1e9,
      garbleSpecialTokensWarn: 1e9,
      garbleBrokenTokensFail: 1e9,
      garbleSpaceMarkersFail: 1e9,
    };
    for (const c of DEGENERATE) assert.deepEqual(runDetector(createGarbleDetector(), c.text, { thresholds: off }).findings, [], c.name);
  });
});

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('garble detector: contract', () => {
  const texts = [
    ...DEGENERATE.map((c) => c.text),
    ...HEALTHY.map((c) => c.text),
    // long texts: tokens and odd chars across many pushes, code fences opening and closing
    (
      'Intro text with `inline <|im_end|>` code.\n```\n<pad>\n```\n' +
      'Prose line number one.\n'.repeat(60) +
      '<|im_start|>user\nx<|im_end|>\n' +
      'caf\ufffd\ufffd '.repeat(12) +
      '\ud83d\ude00 emoji and \u2581piece\u2581marks\u2581here'
    ).repeat(3),
  ];

  it('gives the same figures for any split of the text', () => {
    const r = rng(42);
    for (const text of texts) {
      const whole = runDetector(createGarbleDetector(), text);
      for (let trial = 0; trial < 6; trial++) {
        const deltas: string[] = [];
        for (let i = 0; i < text.length; ) {
          const n = 1 + Math.floor(r() * (trial < 3 ? 8 : 200));
          deltas.push(text.slice(i, i + n));
          i += n;
        }
        const split = runDetector(createGarbleDetector(), text, { deltas });
        assert.deepEqual(split.figures, whole.figures, `split ${trial} of ${JSON.stringify(text.slice(0, 40))}`);
        assert.deepEqual(split.findings, whole.findings);
      }
    }
  });

  it('snapshots mid-stream change nothing', () => {
    const r = rng(7);
    for (const text of texts) {
      const reference = runDetector(createGarbleDetector(), text).figures;
      const d = createGarbleDetector();
      let offset = 0;
      while (offset < text.length) {
        const n = 1 + Math.floor(r() * 40);
        const piece = text.slice(offset, offset + n);
        d.push(piece, offset);
        offset += piece.length;
        const view = { length: offset, slice: (a: number, b: number) => text.slice(a, Math.min(b, offset)) };
        const snap = d.figures(view);
        assert.deepEqual(d.figures(view), snap, 'two snapshots in a row agree');
      }
      const view = { length: text.length, slice: (a: number, b: number) => text.slice(a, b) };
      assert.deepEqual(d.figures(view), reference, JSON.stringify(text.slice(0, 40)));
    }
  });

  it('a mid-stream snapshot equals the figures of the text so far', () => {
    const text = texts[texts.length - 1]!;
    const cut = Math.floor(text.length / 2);
    const d = createGarbleDetector();
    d.push(text.slice(0, cut), 0);
    const mid = d.figures({ length: cut, slice: (a, b) => text.slice(a, Math.min(b, cut)) });
    assert.deepEqual(mid, runDetector(createGarbleDetector(), text.slice(0, cut)).figures);
  });
});
