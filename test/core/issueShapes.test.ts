/**
 * The shapes of collapse that real outputs nobody here had seen showed (issue 18), each on a
 * text written for this test, and the healthy shapes that must stay ok beside them. A shape the
 * analyzer does not catch yet is pinned as a known miss with what is missing, so the list stays honest.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { createRng } from '../../src/prose/random.js';
import { healthyProse } from '../helpers/texts.js';

const prose = healthyProse(900, 3);

function fails(text: string, kind?: RegExp): void {
  const a = analyzeText(text);
  assert.equal(a.verdict, 'fail', `${a.verdict}: ${a.reasons.join(' | ')}`);
  if (kind)
    assert.ok(
      a.findings.some((f) => f.severity === 'fail' && kind.test(f.kind)),
      a.reasons.join(' | '),
    );
}

function ok(text: string): void {
  const a = analyzeText(text);
  assert.equal(a.verdict, 'ok', a.reasons.join(' | '));
}

/** Hard-wraps text at about `width` chars, breaking at spaces. */
function wrap(text: string, width: number): string {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line.length + w.length + 1 > width && line) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  out.push(line);
  return out.join('\n');
}

describe('whole outputs that are a short loop or flood', () => {
  it('one short phrase nine times, ending in "..."', () => fails('Let me think about it... '.repeat(9), /phrase_loop|sentence_loop/));
  it('one word ten times', () => fails('Certainly '.repeat(10), /word_loop/));
  it('a capital letter 31 times, glued and spaced', () => {
    fails('A'.repeat(31), /char_flood/);
    fails('A '.repeat(31), /word_loop/);
  });
  it('a word glued to itself twenty times', () => fails('banana'.repeat(20), /word_loop/));
  it('a numbered list of seven identical items', () =>
    fails(Array.from({ length: 7 }, (_, i) => `${i + 1}. Restart the service and check the logs.`).join('\n'), /line_loop|sentence_loop/));
  it('an opening brace, then only spaces and blank lines', () => fails(`{\n${'    \n\n  '.repeat(20)}`, /whitespace_flood|empty/));
  it('the last word of an unfinished sentence four times', () =>
    fails(`${prose} To fix it we need to change the configuration configuration configuration configuration`, /word_loop/));
  it('a list whose items are floods of one digit, each a char longer, cut mid-item', () => {
    const items = Array.from({ length: 30 }, (_, i) => `    "${String(i % 10).repeat(10 + Math.floor(i / 10))}",`);
    fails(`Here are the values:\n\n[\n${items.join('\n')}\n    "5555555`, /char_flood/);
  });
  it('a short answer that goes round three lines in another order each time', () =>
    fails(
      [
        ...['状态：已通过', '名称：项目名称', '描述：项目名称：项目名称', '状态：已通过', '描述：项目名称：项目名称', '名称：项目名称'],
        ...['状态：已完成', '描述：项目名称：项目名称', '状态：已完成', '名称：项目名称', '状态: 已通过', '描述：项目名称：项目名称'],
        ...['名称：项目名称', '状态：已通过', '描述：项目名称：项目名称', '状态: 已完成', '名称：项目名称', '描述：项目名称：项目'],
      ].join('\n\n'),
      /cycling|_loop/,
    ));
  it('a line said again and again, its first word spelt a little differently each time', () =>
    fails(
      [
        ...['Marvel Toolkit', 'Marvel Toolkit', 'Marvell Toolkit', 'Marvel Toolkit', 'MarvelToolkit', 'Marvil Toolkit', 'Marvil Toolkit'],
        ...['Marvel Toolkit', 'Morvel Toolkit', 'Morvel Toolkit', 'Marvel ToolKit', 'Morvel Toolkit', 'Marvil Toolkit', 'Marvel Toolkit'],
        ...['Murvel Toolkit', 'Murvel Toolkit', 'Marvel Toolkit', 'Morvel Toolkit', 'Marvil Toolkit', 'Marvil Toolkit', 'Murvel Toolkit'],
        ...['Marvel Toolkit', 'Morvel Toolkit', 'Marvel Toolkit', 'Murvel Toolkit', 'Marvil Toolkit', 'Marvel Toolkit', 'Murvel Too'],
      ].join('\n\n'),
      /cycling|_loop/,
    ));
  it('a JSON array of three values cycling four times', () =>
    fails('["red", "green", "blue", "red", "green", "blue", "red", "green", "blue", "red", "green", "blue"]', /_loop|cycling/));
  it('a sentence, a blank line, the same sentence, and the start of a third', () =>
    fails(
      'The capital of France is Paris, a city on the Seine.\n\nThe capital of France is Paris, a city on the Seine.\n\nThe capital of France',
      /sentence_loop|paragraph_loop|line_loop/,
    ));
});

describe('loops that line wrapping hides', () => {
  it('two sentences four times, hard-wrapped at about 100 chars so each copy breaks elsewhere', () => {
    const unit =
      'The scheduler keeps one timer per target and probe. When a reload arrives it compares the schedules before it replaces anything. ';
    fails(`${prose}\n\n${wrap(unit.repeat(4), 100)}`, /sentence_loop|paragraph_loop|line_loop/);
  });
});

describe('gibberish of several shapes', () => {
  it('words of many languages and scripts glued into each other', () =>
    fails('Result sequencia日至itm(prev轩辕 parlé вопросTrack 渋谷inher dans le 计划zeit', /gibberish|script_switch|word_salad/));
  it('a run of words with no function word and no break, the whole output', () =>
    fails('DungeonCanadaci Professional fingers Swansea Adin pee UCH TRANS', /word_salad|gibberish/));
  it('glued-word salad after a fluent start', () =>
    fails(
      `${prose} ${'andthenanalysingbudgetforecastquarterlyprocurementdeliverables'.repeat(6)} and ${'synergyleveragingstakeholderalignment'.repeat(5)}`,
      /gibberish/,
    ));
  it('words glued by commas and brackets, after a fluent start', () =>
    fails(
      `${prose}\n\n${['theater,angel', 'of,angewe', '(the,lighting', 'ess inside,the', 'arches of,light', 'the,same,brow', 'ho horeu,ing', 'agr,f again', 'the whole,of', 'divisovor,the', 'prisitu,bright', 'inside,lighting', 'the,next then', 'by,the in', 'the,reflected', 'quearc,bright', 'same,brow', 'horeu,ing'].join(' ')}`,
      /gibberish/,
    ));
  it('a fluent answer that decays into lines of commas, dots and stray words between lone marks', () => {
    const fragments = ['**', '.', '** and', ',', '**', '**', 'the', '**', ';', '**', '. with', '**', ',', '**', 'did not', '**'];
    fails(`${prose}\n\n${Array.from({ length: 5 }, () => fragments.join('\n\n')).join('\n\n')}`, /gibberish/);
  });
  it('lines of random digits and capitals after a few broken fragments', () =>
    fails(
      `The answer is the following steps:\n\nFirst we ane the to\n\n7QX2 K9 JJ4R 88ZP\nM3 XK2Q 0PL9W 44T\nZ8R1 Q7 NN3K 9XW2\nT4 R8KZ 2MW 5QJX\n3HLP W0 PK7 X9VN\n`,
      /gibberish/,
    ));
  it('300 chunks of printable chars drawn at random, after a fluent start, for five seeds', () => {
    // a sampler gone uniform over the printable ASCII chars; backticks and quotes left out, as they open inline code and
    // strings, whose chunks the prose detectors leave alone
    const chars = [...'!#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstuvwxyz{|}~'];
    for (const seed of [1, 2, 3, 4, 5]) {
      const rand = createRng(seed);
      const chunk = () => Array.from({ length: 4 + Math.floor(rand() * 9) }, () => chars[Math.floor(rand() * chars.length)]).join('');
      fails(`${prose}\n\n${Array.from({ length: 300 }, chunk).join(' ')}`, /gibberish/);
    }
  });
  it('prose full of identifiers, brand names and short keys stays ok', () =>
    ok(
      `${prose} Call getElementById, then addEventListener on the node; McDonald's, GitHub's and YouTube's apps use it. ` +
        'Set the key to aB3xQ9 in config.yml, run npm i @types/node, and keep IPv6 ([::1]) and IPv4 (127.0.0.1) both open. ' +
        'XMLHttpRequest and fetch() differ; the iPhone and iPad builds share the SDK. The token dGVzdA== decodes to "test".',
    ));
  it('a sentence of random-looking part numbers stays ok', () =>
    ok('Part numbers in the kit: 3M8X2 4K9Z1 7Q2W5 2R6T8 9Y3U1 5P7L4 8N2M6 1B9V3 for the service engineer.'));
  it('gene and product names of letters then a number, in a sentence, stay ok', () => {
    ok('The panel reads BRCA1 BRCA2 TP53 CHEK2 PALB2 CDH1 STK11 RAD51C RAD51D BARD1 MLH1 MSH2 in one run.');
    ok('The lineup covers RTX4090 RTX4080 RTX4070 RX7900 RX7800 RX7600 A770 A750 H100 A100 L40S and GH200 cards for every budget.');
  });
  it('lists of chemical formulas in a sentence stay ok', () => {
    const formulas =
      'NaCl KCl CaCO3 MgSO4 Fe2O3 CuSO4 KMnO4 H2SO4 HNO3 NH4Cl NaOH Ca(OH)2 AgNO3 BaCl2 ZnSO4 Al2O3 Na2CO3 K2Cr2O7 PbI2 MnO2'.split(' ');
    ok(`Common compounds in the school lab include ${formulas.join(', ')}.`);
    ok(`The salts on the shelf are ${formulas.join(' ')} and a few more.`);
  });
  it('a list of generated coupon codes stays ok', () => {
    const codes = [
      'X7K2P9',
      'Q4M8ZT',
      'B9R3WX',
      'H2J7NC',
      'T5V1KQ',
      'M8D4RZ',
      'P3X9LW',
      'K6Q2TB',
      'Z1N7HV',
      'R4C8MJ',
      'W9T3XP',
      'D2K6QN',
      'F7Z4BR',
      'L5H1WC',
      'N8P3ZK',
    ];
    ok(`Here are fifteen coupon codes:\n\n${codes.map((c, i) => `${i + 1}. ${c}`).join('\n')}\n\nEach one is valid for 30 days.`);
    ok(`Here are fifteen coupon codes: ${codes.join(', ')}. Each one is valid for 30 days.`);
  });
  it('a list of generated passwords and a table of example keys stay ok', () => {
    const keys = [
      'aB3$kL9!qZ',
      'Xr7#pQ2@wM',
      'nT5&vB8*Lc',
      'Gh4!zR9$eK',
      'mW2@cX7#Pq',
      'Jd8*sF3&Ty',
      'qL6#Hn1!Vb',
      'Zp9$Ke4@Ru',
      'Yc3&Mx8*Dw',
      'Fs7!Wt2#Gj',
    ];
    keys.push(...keys.map((k) => [...k].reverse().join('')));
    ok(`Here are twenty strong passwords:\n\n${keys.map((k, i) => `${i + 1}. ${k}`).join('\n')}\n\nStore them in a password manager.`);
    ok(`| user | key |\n|---|---|\n${keys.map((k, i) => `| user${i} | ${k} |`).join('\n')}\n`);
  });
  it('a spec of CARD16 and INT32 fields and a text of CO2 and MP3 stay ok', () => {
    ok(`Each record holds CARD16 type, CARD16 length, CARD32 offset and INT32 value fields, in that order.`);
    ok(`${prose} Plants absorb CO2 and release O2. The MP3 and H264 files are stored on the NAS under RAID6.`);
  });
  it('word fragments between leaked [control_NNN] markers', () =>
    fails(`We can [control_12] ing the [control_88] resul [control_301] ts and [control_7] the`, /special_tokens/));
  // A known miss, pinned so the day it is caught this test says so (move it to fails() then):
  // no per-word plausibility. A language identifier scores these words as it scores real names
  // and tools (eld 2.1, top score over 60 languages: "quozzlet flarbnik" 0.414, as "grep sed awk"
  // and "pytorch numpy scipy" 0.414, "Ouagadougou Bujumbura Nouakchott" 0.24; 2,000 triples of
  // invented pronounceable words, median 0.38, against 0.8 for 3-word windows of the healthy
  // corpora), so a threshold that fails them fails healthy short answers; a lexicon of every
  // language is what is missing. docs/detection.md lists it among the known misses.
  it('known miss: three invented non-words as the whole output read ok', () => ok('Vrenthax quozzlet flarbnik'));
  it('a fluent greeting whose last 40 chars turn into keyword salad', () =>
    fails(
      'Hello! Thank you for reaching out. I would be glad to help you plan your trip to Lisbon this spring. hotel flight cheap deal booking tram',
      /word_salad/,
    ));
  it('a sentence that ends in a list of names, and one cut mid-way, stay ok', () => {
    ok(`${prose} We visited Lisbon, Porto, Braga and Faro. Next year: Seville Granada Cordoba Malaga Cadiz Ronda`);
    ok(`${prose} The report lists the hotel, flight and tram costs. hotel flight`);
    // the words are not the end: a block of code follows them
    ok(`${prose} Install it as follows. npm install fastify pino undici eventsource parser\n\n\`\`\`js\nconst x = 1;\n\`\`\`\n`);
  });
  it('function words between runs of backslashes', () =>
    fails(
      `the ${'\\'.repeat(12)} of ${'\\'.repeat(9)} and ${'\\'.repeat(14)} to ${'\\'.repeat(11)} in ${'\\'.repeat(10)} the`.repeat(6),
      /gibberish|punctuation_flood/,
    ));
});

describe('language switches', () => {
  it('an English essay that switches into Chinese for two paragraphs and comes back', () =>
    fails(
      `${prose}\n\n数据的透明性不足还削弱了对数据收集机构的问责制，因为没有充分的信息公开，公众无法有效地监督或质疑这些活动的正当性。\n\n透明度和问责机制的强化是确保监控活动符合伦理标准的关键。\n\n${healthyProse(400, 9)}`,
      /script_switch/,
    ));
  it('a screenplay in English whose scene description turns into Chinese for a long stretch', () => {
    const scene = [
      'INT. HARBOUR OFFICE - NIGHT',
      'Rain against the window. MARA sorts through a stack of shipping manifests.',
      'MARA: The Calypso never left port. Somebody signed for her anyway.',
      'JONAS (O.S.): Then somebody lied.',
    ].join('\n\n');
    const description = [
      '她把文件摊在桌上，一页一页地翻看，灯光在纸面上投下长长的影子。',
      '窗外的雨越下越大，码头上的吊车静静地立在黑暗里，像一排沉默的守卫。',
      '她停在最后一页，上面的签名和她记忆中的任何一个人都对不上。',
      '乔纳斯走近桌边，低头看着那一行字，很久都没有说话。',
      '远处传来一声汽笛，一艘货船正在驶离港口，海浪拍打着堤岸。',
      '办公室里只剩下钟表的滴答声和暖气片偶尔发出的轻响。',
      '她终于抬起头，问他那天晚上究竟是谁在值班，又是谁打开了仓库的大门。',
    ].join('');
    fails(`${scene}\n\n${description}\n\n${scene.replace('NIGHT', 'LATER')}`, /script_switch/);
  });
  it('one Chinese sentence inside an English reasoning trace', () =>
    fails(`${prose} So the user wants the total. 我需要先计算每个部分的总和然后再相加 Then I add them up.`, /script_switch/));
  it('a Korean answer that switches to Chinese mid-sentence', () =>
    fails(
      '두 테이블은 각각 주제와 저자를 저장합니다. 그리고 쿼리는的事实证明，您提供的查询语句中存在一个错误，即后面缺少了具体的连接条件。',
      /script_switch/,
    ));
  it('Simplified Chinese that turns into Traditional Chinese', () =>
    fails(
      '我们继续讨论这个系统的整体结构和主要组成部分。每个节点都保存一份日志副本。我們繼續討論這個系統的整體結構和主要組成部分。每個節點都保存一份日誌副本。',
      /script_switch/,
    ));
});

describe('long answers that go back over themselves', () => {
  const paragraphs = [
    'The harbour town woke slowly that spring. Fishing boats sat idle along the quay while the nets were mended, and the old ferry made only two crossings a day because the new engine had still not arrived from the mainland.',
    'Nobody in the town could remember a winter as long as that one. The school closed for a week in February when the road over the hill froze, and the baker sold bread from his back door to anyone who walked down to the harbour.',
    'When the engine finally came, it came on a barge with a crane and four men from the shipyard. They worked through the night under floodlights, and by morning the ferry was running again, louder than before but on time.',
    'My grandmother kept a diary of every crossing she made. She wrote down the weather, the names of the people she sat beside and what they talked about, and she never missed a day in forty years of going to the market.',
    'In the diary there is a page about the storm of the year before. The ferry turned back halfway, the passengers sang to keep their spirits up, and a young doctor delivered a baby in the cabin while the waves broke over the deck.',
    'That baby grew up to run the ferry himself. He still tells the story to tourists in summer, pointing at the bench in the cabin, and he always ends it the same way, with the words his mother said when they reached the harbour.',
  ];
  it('a CSV table whose last rows cycle through three of its rows, a count changed now and then', () => {
    const rows = [
      '2024-01-02,north,widget,12,240.00',
      '2024-01-02,south,gadget,7,315.50',
      '2024-01-03,east,widget,9,180.00',
      '2024-01-03,west,gizmo,4,99.90',
    ];
    const cycle: string[] = [];
    for (let k = 0; k < 8; k++)
      for (const row of rows.slice(0, 3)) {
        const f = row.split(',');
        f[3] = String(Number(f[3]) + (k % 2));
        cycle.push(f.join(','));
      }
    fails(
      `Here is the table:\n\ndate,region,product,units,revenue\n${rows.join('\n')}\n${cycle.join('\n')}`,
      /line_loop|cycling|list_runaway/,
    );
  });
  it('a runaway list of "A <noun>." lines to the end', () => {
    const nouns = Array.from(
      { length: 320 },
      (_, i) => `thing${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}${i}`,
    );
    fails(`${prose}\n\n${nouns.map((n) => `A ${n.replace(/\d+/, '')}${'x'.repeat(i3(n))}.`).join('\n')}`, /list_runaway|line_loop|cycling/);
  });
  it('a scene sequence replayed three times with a line changed', () => {
    const scene = [
      'INT. KITCHEN - NIGHT',
      'MARA stands by the window, holding a cold cup of tea.',
      'MARA: You said you would call.',
      'JONAS: I know. I lost track of time.',
      'She turns away. The kettle starts to whistle.',
    ];
    const variant = (k: number) =>
      scene.map((l, i) => (i === 4 ? `She turns away. The kettle starts to whistle${'.'.repeat(1 + (k % 2))}` : l)).join('\n\n');
    fails(`${prose}\n\n${[0, 1, 2, 3].map(variant).join('\n\n')}`, /paragraph_loop|line_loop|cycling/);
  });
  it('an answer whose last paragraphs restate earlier ones, reordered, a word changed here and there', () => {
    // the end goes back over the six paragraphs in another order each time, one word swapped in some
    const orders = [
      [2, 0, 4],
      [1, 5, 3, 0],
      [4, 2, 5],
      [0, 3, 1, 4],
      [5, 2, 0],
      [3, 1, 4, 2],
    ];
    const end = orders
      .flat()
      .map((k, i) => (i % 3 === 0 ? paragraphs[k]!.replace(/\bthe\b/, 'that') : paragraphs[k]!))
      .join('\n\n');
    fails(`${prose}\n\n${paragraphs.join('\n\n')}\n\n${end}`, /cycling|paragraph_loop/);
  });
  it('an answer that goes back over its paragraphs three times more, their sentences in another order each time, for six seeds', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rand = createRng(seed);
      const shuffled = (p: string) => {
        const s = p.split(/(?<=\.) /);
        for (let i = s.length - 1; i > 0; i--) {
          const j = Math.floor(rand() * (i + 1));
          [s[i], s[j]] = [s[j]!, s[i]!];
        }
        return s.join(' ');
      };
      const end = Array.from({ length: 18 }, () => shuffled(paragraphs[Math.floor(rand() * paragraphs.length)]!)).join('\n\n');
      // (a paragraph drawn twice in a row, its sentences in the same order, is a paragraph said again back to back)
      fails(`${prose}\n\n${paragraphs.join('\n\n')}\n\n${end}`, /cycling|paragraph_loop/);
    }
  });
  it('a long song that sings its chorus seven times stays ok', () => {
    const chorus =
      'So carry me home on the evening train,\nthrough the fields and the towns and the rain,\nand if I should wake before we arrive,\ntell me the river is still alive,\nthe lights on the water, the bells on the hill,\nthe house by the harbour is standing still.';
    const verses = [
      'My father built boats with his hands and his pride,\nmy mother kept lanterns lit every night,\nwe ran down the pier when the fishermen came,\nand none of the children would answer their name.',
      'The winters were long and the summers were brief,\nthe orchard was heavy with apples and leaf,\nI carved both our names in the door of the shed,\nand swore I would stay there, whatever I said.',
      'The city was loud and the city was kind,\nit gave me a job and it gave me a mind,\nbut under the traffic I heard in my sleep\nthe sound of the anchor chain dropped in the deep.',
      'I wrote you a letter I never could send,\nI started it over again and again,\nthe ink on the paper ran blue in the cold,\nthe words that I meant were too heavy to hold.',
      'They tell me the ferry still leaves at nine,\nthe ticket is cheap and the weather is fine,\nthe man at the counter still whistles a tune\nhis father would sing on the first day of June.',
      'So here is my coat and my suitcase and shoes,\nI have nothing to win and nothing to lose,\nthe station is empty, the platform is wet,\nand I have not forgotten, I will not forget.',
      'And when I am old and my hair has gone grey,\nI will sit on the bench at the end of the day,\nI will count all the boats as they come in to land,\nwith a cup in my lap and your hand in my hand.',
    ];
    ok(verses.map((v) => `${v}\n\n${chorus}`).join('\n\n'));
  });
});

describe('stutter', () => {
  it('every second token twice, through a whole stretch', () =>
    fails(
      `${prose} ${'I I think think the the answer answer depends depends on on how how the the cache cache is is warmed warmed before before the the first first request request arrives arrives '.repeat(2)}`,
      /stutter/,
    ));
  it('a legitimate doubled word stays ok', () =>
    ok(`${prose} He said that that was the plan, and she had had enough of it. The team agreed and moved on to the next item.`));
});

describe('healthy shapes stay ok', () => {
  it('a reference list in another script at the end of a Korean essay', () =>
    ok(
      `디지털 감시는 현대 사회에서 중요한 문제입니다. 정부와 기업은 개인의 데이터를 수집하고 분석하여 다양한 목적으로 활용합니다. 이러한 관행은 개인의 사생활을 침해할 수 있으며, 투명성과 책임성에 대한 질문을 제기합니다. 따라서 우리는 데이터 수집의 범위와 목적을 명확히 하고, 시민이 자신의 정보가 어떻게 사용되는지 알 수 있도록 해야 합니다.\n\n참고 문헌\n\n1. Zuboff, S. (2019). The Age of Surveillance Capitalism. PublicAffairs.\n2. Lyon, D. (2018). The Culture of Surveillance. Polity Press.\n3. Solove, D. J. (2008). Understanding Privacy. Harvard University Press.\n4. Nissenbaum, H. (2010). Privacy in Context. Stanford University Press.\n5. Richards, N. (2021). Why Privacy Matters. Oxford University Press.`,
    ));
  it('a padded markdown table', () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) => `| node-${i}${' '.repeat(30)}| ${['ready', 'draining', 'ready'][i % 3]}${' '.repeat(24)}| ${(i * 7) % 64} |`,
    );
    ok(`| Node${' '.repeat(32)}| State${' '.repeat(24)}| Pods |\n|${'-'.repeat(38)}|${'-'.repeat(30)}|------|\n${rows.join('\n')}\n`);
  });
  it('a song whose chorus comes back twice', () => {
    const chorus = 'Oh, highway radio, play me something slow,\nplay me something old that everybody used to know.\n';
    ok(
      `Diner on the border with a neon sign,\nwaitress with a pencil and a tired line.\n\n${chorus}\nJukebox in the corner playing fifty-eight,\ntrucker in the booth says it's getting late.\n\n${chorus}`,
    );
  });
});

function i3(s: string): number {
  return s.length % 3;
}

describe('a collapse inside a fenced code block (what the block holds is read apart: code as code, the rest as prose is)', () => {
  const opening = `${prose}\n\nHere is a loader for the file:\n\n\`\`\`python\nimport json\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n`;
  /** `chunks` chunks of chars drawn from several scripts, as a model whose output fell apart into vocabulary noise writes. */
  function noise(seed: number, chunks: number): string {
    const rand = createRng(seed);
    const alphabets = [
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
      'абвгдежзийклмнопрстуфхцчшщъыьэюя',
      'αβγδεζηθικλμνξοπρστυφχψω',
      '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自可',
      'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
      'กขคงจฉชซญดตถทนบปผพฟมยรลวศสหอฮ',
      '가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허',
    ];
    const out: string[] = [];
    for (let i = 0; i < chunks; i++) {
      let w = '';
      const n = 2 + Math.floor(rand() * 7);
      for (let k = 0; k < n; k++) {
        const abc = alphabets[Math.floor(rand() * alphabets.length)]!;
        w += abc[Math.floor(rand() * abc.length)];
      }
      out.push(w);
    }
    return out.join(' ');
  }
  /** A line of `n` words drawn from a dozen, as a block that turned into strung words. */
  function strung(seed: number, n: number): string {
    const rand = createRng(seed);
    const pool = 'value buffer token layer cache weight index queue stream batch kernel tensor'.split(' ');
    return Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]!).join(' ');
  }
  for (const seed of [1, 2, 3]) {
    it(`noise of many scripts in a block left open, and in one closed (seed ${seed})`, () => {
      fails(opening + noise(seed, 250), /gibberish/);
      fails(`${opening + noise(seed, 250)}\n\`\`\`\n`, /gibberish/);
    });
    it(`a line of words drawn from a dozen in a block (seed ${seed})`, () => fails(opening + strung(seed, 200), /word_salad/));
  }
  it('install lines, keyword lists, keys, hashes, trees, verse, minified code and comments in Chinese stay ok', () => {
    const rand = createRng(7);
    const b64 = (n: number) => {
      const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      return Array.from({ length: n }, () => abc[Math.floor(rand() * 64)]).join('');
    };
    const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
    const blocks = [
      'bash\npip install numpy pandas scipy matplotlib seaborn scikit-learn torch torchvision torchaudio transformers datasets accelerate tokenizers sentencepiece protobuf requests tqdm pyyaml jinja2 click rich typer fastapi uvicorn httpx pydantic',
      '\nsudo apt install git curl wget vim htop tmux zsh make cmake gcc clang gdb valgrind strace ltrace tree jq ripgrep fd bat fzf neovim python3 nodejs npm',
      '\nkeywords machine learning deep learning neural networks transformers attention embeddings tokenization inference quantization distillation pruning evaluation deployment monitoring latency throughput caching batching streaming',
      `\n-----BEGIN CERTIFICATE-----\n${(b64(1600).match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`,
      `\n${b64(1200)}`,
      `\n${Array.from({ length: 30 }, (_, i) => `${hex(64)}  release-${i}.tar.gz`).join('\n')}`,
      '\n.\n├── src\n│   ├── index.ts\n│   └── server.ts\n└── package.json',
      'text\nThe rain falls soft upon the hill\nand all the town is calm and still\nthe lamps are lit along the quay\nand ships come home across the sea',
      `js\n${'var a=function(b,c){return b+c};'.repeat(3)}function x(e){for(var t=0,n=e.length;t<n;t++)if(e[t]===null)return!1;return!0}`,
      'python\n# 读取配置文件并解析参数，然后启动服务器\ndef main():\n    # 这里我们先检查环境变量是否存在，如果不存在就使用默认值\n    pass',
    ];
    for (const b of blocks) ok(`${prose}\n\nRun this:\n\n\`\`\`${b}\n\`\`\`\n\nThat is all you need.`);
  });
});
