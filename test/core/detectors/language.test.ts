import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { scriptOfLanguage } from '../../../src/core/detectors/languageId/identifiedLanguages.js';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const prose = healthyProse(900, 11);
const judged = (text: string) => verdicts(detect('language', text).findings);

describe('language: does the text read as some language', () => {
  it('healthy prose, code and data say nothing', () => {
    assert.deepEqual(judged(prose), []);
    assert.deepEqual(judged('function fooBar(a, b) {\n  return a.x + b.y; // FST_ERR_DEC_ALREADY_PRESENT\n}\n'.repeat(10)), []);
    assert.deepEqual(judged(`date,model,score\n${Array.from({ length: 30 }, (_, i) => `2024-01-${i},m-${i % 3},0.${i}`).join('\n')}`), []);
  });
  it('scripts glued into each other in English text are gibberish', () =>
    assert.deepEqual(judged(`${prose} sequencia日至itm轩辕 parléвопрос Track渋谷inher dans计划zeit momentoλόγος beatsミク`), [
      'gibberish/fail',
    ]));
  it('words run together are gibberish, an identifier is not', () => {
    assert.deepEqual(judged(`${prose} ${'budgetforecastquarterlyprocurementdeliverables '.repeat(8)}`), ['gibberish/fail']);
    assert.deepEqual(judged(`${prose} The EventEmitterAsyncResourceOptions type takes one field.`), []);
  });
  it('a C include guard of 60+ capitals and underscores is one name; lower-case words strung by underscores past 60 are words run together', () => {
    const banner = '// A simple dynamic library manager. Allows dynamic libraries to be loaded and searched.\n\n';
    const guard = 'LLVM_EXECUTIONENGINE_ORC_TARGETPROCESS_SIMPLEEXECUTORDYLIBMANAGER_H';
    assert.deepEqual(judged(`${banner}#ifndef ${guard}\n#define ${guard}\n`), []);
    const keys = 'river_window_letter_garden_kettle_mirror_pocket_ladder_candle_basket_harbour';
    assert.deepEqual(judged(`${banner}#ifndef ${keys}\n#define ${keys}\n`), ['gibberish/fail']);
  });
  it('punctuation scattered where no language puts it is gibberish', () => {
    assert.deepEqual(judged('Sure,!! I! can! do!!!! that. Where! should! we!!! start! today!?!'), ['gibberish/fail']);
    const soup =
      'The.. ofa,, mostly.,. re, p,. ta..i an,,., sel. the.. um,.. de,, of the.. al,,., m. so,, and.,. eu p,, the a.. is,. ra de,, in,.. the';
    assert.deepEqual(judged(`${prose} ${soup}`), ['gibberish/fail']);
  });
  it('ellipses, abbreviations, interrobangs, French spacing and code operators are not', () => {
    const usual =
      'Well... I think so, e.g., the old one, etc., and then? What?! Really!? Bonjour ! Ça va ? Oui : merci. Use a?.b, x ?? y, name?: string and std::vector::size, then wait . . . and go.';
    assert.deepEqual(judged(`${prose} ${usual}`), []);
    assert.ok(detect('language', usual).figures.noise < 0.3);
    const comments = '/// the options of the parser\n/// are read once at start\n|| either one || or the other ||\n'.repeat(4);
    assert.deepEqual(judged(`${prose}\n${comments}`), []);
  });
  it('a run of words without function words or breaks is word salad; a list with commas is not', () => {
    assert.deepEqual(judged('Dungeon Canada fingers Professional Adin pee Swansea TRANS'), ['word_salad/fail']);
    assert.deepEqual(judged('Brazil, Canada, Chile, Denmark, Egypt, France, Ghana, Hungary.'), []);
  });
  it('saladBreakShare is read as configured: words with a comma every fifth fail only where it allows a fifth of breaks', () => {
    // 20% of the chunks followed by a comma, no function word: above the default 0.1, under a raised 0.3
    const strung =
      'harbour crane ledger copper lantern, orchard violet tundra pebble marble, ribbon glacier falcon meadow cobalt, canyon saddle willow ember quartz, thistle beacon';
    assert.deepEqual(judged(strung), []);
    const raised = verdicts(detect('language', strung, { thresholds: { saladBreakShare: 0.3 } }).findings);
    assert.deepEqual(raised, ['word_salad/fail']);
  });
  it('a stretch of function words and hardly anything else is word salad; a list of stop words is not', () => {
    const soup = 'and the of the and the of in the and to the of a the and the in of the and the of the to and the of the in the';
    assert.deepEqual(judged(`${prose} ${soup}`), ['word_salad/fail']);
    const stopWords = soup
      .split(' ')
      .map((w) => `"${w}",`)
      .join(' ');
    assert.deepEqual(judged(`${prose}\n\nconst stopWords = [${stopWords}];`), []);
  });
  it('a run-on line of a few words said again and again is word salad', () => {
    const pool = ['ankle', 'eyebrow', 'wrist', 'knee', 'jaw', 'spine', 'Kidney', 'elbow'];
    assert.deepEqual(judged(Array.from({ length: 60 }, (_, i) => pool[(i * 5 + (i >> 2)) % pool.length]).join(', ')), ['word_salad/fail']);
  });
  it('a sentence that runs on into such a list, on the same line, is word salad; a line of prose with a list in it is not', () => {
    const pool = ['ankle', 'eyebrow', 'wrist', 'knee', 'jaw', 'spine', 'Kidney', 'elbow'];
    const salad = Array.from({ length: 60 }, (_, i) => pool[(i * 5 + (i >> 2)) % pool.length]).join('; ');
    const sentence = 'In practice the Sun will change long before that happens, so the end state is a thought exper';
    assert.deepEqual(judged(`${prose}\n\n${sentence}${salad}`), ['word_salad/fail']);
    const line = `${sentence}iment. Pack the ${pool.join(', ')} guards, and a spare strap for each of the two boots.`;
    assert.deepEqual(judged(`${prose}\n\n${line}`), []);
  });
  it('words run together inside a JSON string left open are gibberish; log lines with messages of words are not', () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `{"ts":"2026-04-02T10:15:${10 + i}Z","level":"info","svc":"gateway","msg":"request","path":"/api/v1/orders/o-${551900 + i}","status":200}`,
    ).join('\n');
    const glued =
      'ankleelbowkneepillowkettleladdermorocco ecuadorcandlespoonradishfennelheelshinbisonwalnut lamptapirkettlellamahipkidneycurtain shelflemurteapotpumpkinbarleygingerthumbsaucer';
    const open = '{"ts":"2026-04-02T10:15:30Z","level":"error","svc":"mailer","msg":"smtp';
    assert.deepEqual(judged(`${rows}\n${open} ${glued} ${glued}`), ['gibberish/fail']);
    assert.deepEqual(
      judged(`${rows}\n${open} 451 temporary failure, will retry the delivery in sixty seconds from now","retry":60}\n`),
      [],
    );
  });
  it('the same with semicolons between the words; a semicolon ending a statement of code is still code', () => {
    const pool = ['ankle', 'eyebrow', 'wrist', 'knee', 'jaw', 'spine', 'Kidney', 'elbow'];
    assert.deepEqual(judged(Array.from({ length: 60 }, (_, i) => pool[(i * 5 + (i >> 2)) % pool.length]).join('; ')), ['word_salad/fail']);
    const code = Array.from({ length: 60 }, (_, i) => `let ${pool[i % pool.length]}${i} = ${pool[(i * 3) % pool.length]};`).join('\n');
    assert.deepEqual(judged(code), []);
  });
});

const badges =
  '[![CI on main][ci-badge]][ci-url]\n[![npm version][npm-badge]][npm-url]\n\n[ci-badge]: https://example.org/ci.svg\n[npm-url]: https://example.org/pkg\n\n';

describe('language: the same script throughout', () => {
  it('a sentence in another script fails', () =>
    assert.deepEqual(judged(`${prose} 我需要先计算每个部分的总和然后再相加 Then I add them up.`), ['script_switch/fail']));
  it('a quoted word in another script does not', () => assert.deepEqual(judged(`${prose} The word 你好 means hello.`), []));
  it('a run in the script of the language the prompt asked for does not (a translation asked for)', () => {
    const text = `${prose} The paragraph in Simplified Chinese:\n\n人工智能正在改变我们的工作方式。许多公司已经开始使用机器学习来分析数据。`;
    for (const asked of ['zh', 'ja']) assert.deepEqual(verdicts(detect('language', text, { expectLanguage: asked }).findings), [], asked);
    for (const asked of ['en', 'ko', 'sr'])
      assert.deepEqual(verdicts(detect('language', text, { expectLanguage: asked }).findings), ['script_switch/fail'], asked);
    assert.deepEqual(
      ['zh', 'ko', 'ru', 'hi', 'de', 'sr', 'xx'].map((c) => scriptOfLanguage(c)),
      ['cjk', 'hangul', 'cyrillic', 'indic', 'latin', null, null],
    );
  });
  it('an example the prose introduces with a colon and goes on from does not, on its line or after it', () => {
    for (const text of [
      `${prose} To introduce yourself politely in Japanese, say: 初めまして、ジョンと申します。よろしくお願いします。 The first part means "nice to meet you".`,
      `${prose} Here is the sentence in Mandarin, with pinyin:\n\n我今天下午要去图书馆还书。\n\nWǒ jīntiān xiàwǔ yào qù túshūguǎn huán shū.`,
      `${prose} It reads: 「人工智能正在改变我们的工作方式。」 That is the whole quote.`,
    ])
      assert.deepEqual(judged(text), [], text.slice(prose.length, prose.length + 40));
    // glued into the prose, or after a comma, it is a drift; after a colon with no way back, the answer moved into it
    assert.deepEqual(judged(`${prose} To introduce yourself, 初めまして、ジョンと申します。 The first part means hello.`), [
      'script_switch/fail',
    ]);
    assert.deepEqual(
      judged(`${prose} The paragraph in Simplified Chinese:\n\n人工智能正在改变我们的工作方式。许多公司已经开始使用机器学习来分析数据。`),
      ['script_switch/fail'],
    );
  });
  it('Latin terms and references inside a Korean text do not', () =>
    assert.deepEqual(
      judged(
        "쿼리는 Kafka 메시지를 보내고 PostgreSQL 테이블을 업데이트합니다. 이 방식은 간단하고 안정적입니다.\n\n참고 문헌\n1. Kleppmann, M. (2017). Designing Data-Intensive Applications. O'Reilly Media.\n2. Zuboff, S. (2019). The Age of Surveillance Capitalism. PublicAffairs.",
      ),
      [],
    ));
  it('simplified Chinese going on in traditional fails; a traditional title quoted in simplified text does not, nor Japanese', () => {
    const simplified = '我们继续讨论这个系统的整体结构和主要组成部分。每个节点都保存一份日志副本，并且定期检查数据是否一致。';
    const traditional = '我們繼續討論這個系統的整體結構和主要組成部分。每個節點都保存一份日誌副本，並且定期檢查資料是否一致。';
    assert.deepEqual(judged(simplified + traditional), ['script_switch/fail']);
    assert.deepEqual(judged(traditional + traditional), []);
    assert.deepEqual(judged(`${simplified}他最喜欢的书是《紅樓夢》和《說文解字》。${simplified}`), []);
    assert.deepEqual(
      judged('東京の会社で働いています。毎日電車で通勤して、時間があれば図書館で本を読みます。国語と数学を学びました。'),
      [],
    );
  });
  it('Greek examples in an English grammar answer do not', () =>
    assert.deepEqual(judged(`${prose} For example, "Η πόρτα ανοίχτηκε" uses the passive voice.`), []));
  it('the text opens in the script of its first clause of prose', () => {
    const f = detect('language', 'Sure, here is the answer: 这个问题的答案是我们需要重新启动服务器然后检查日志文件中的错误信息').figures;
    assert.equal(f.script, 'latin');
    assert.equal(f.switchScript, 'cjk');
  });
  it('badges and link labels in Latin before Russian prose do not make the text a Latin one', () => {
    const russian =
      'Этот инструмент форматирует код и проверяет его на ошибки. Он работает быстро и не требует настройки, поэтому его можно сразу использовать в любом проекте.';
    const f = detect('language', badges + russian).figures;
    assert.equal(f.script, 'cyrillic');
    assert.deepEqual(judged(badges + russian), []);
  });
  it('Latin names glued into Japanese prose, beside a list of product names, are how Japanese is written', () =>
    assert.deepEqual(
      judged(
        badges +
          '**Tool** はWebプロジェクトのための高速なツールチェーンです。**Tool** は _JavaScript_, _TypeScript_, _JSX_, _JSON_, _CSS_, _GraphQL_, _HTML_, _Markdown_, _YAML_ そして _SCSS_ 向けのFormatterとLinterを備えています。',
      ),
      [],
    ));
  it('a Korean answer that is mostly code is Korean: the code and a gloss in brackets do not make it Latin', () => {
    const code = Array.from(
      { length: 16 },
      (_, i) => `def step_${i}(items, limit=${i}):\n    return [x for x in items if x is not None and x < limit]`,
    ).join('\n');
    const text = `Flask 프레임워크로 (a small web framework for Python) 간단한 API 서버를 만드는 방법입니다.\n\n\`\`\`python\n${code}\n\`\`\`\n\n실행하면 정렬된 목록이 출력됩니다.`;
    assert.ok(code.length > 0.8 * text.length);
    assert.equal(detect('language', text).figures.script, 'hangul');
    assert.deepEqual(judged(text), []);
  });
  it('a Korean answer whose last paragraph turns English stays a Korean text (the switch into Latin runs longer)', () => {
    const text =
      '이 함수는 입력 배열을 정렬한 뒤 중복된 값을 제거합니다. 결과는 새 배열로 반환되며 원래 배열은 바뀌지 않습니다. 다른 순서가 필요하면 비교 함수를 두 번째 인수로 넘기면 됩니다.\n\n' +
      'The function sorts the input array and then removes every duplicate value from it. The result comes back as a new array, so the original one is never changed by the call, and you can keep using it as before. If you need the values in another order, pass a comparison function as the second argument, and it will be used for the sort instead of the default one. Large arrays are sorted in place on a copy first, which costs memory once but keeps the call fast; small ones are handled by a simple insertion sort. When two values compare equal, the first one seen is the one that stays, so the order of the input decides which duplicate survives in the end.';
    const f = detect('language', text).figures;
    assert.deepEqual([f.script, f.switchScript], ['hangul', 'latin']);
    assert.ok(f.switchLetters < 600);
    assert.deepEqual(judged(text), []);
    const longer = `${text} The rest of them are dropped from the result without a warning of any kind, and a log line counts them when the debug flag is on, which helps when a caller wonders where its values went.`;
    assert.deepEqual(judged(longer), ['script_switch/fail']);
  });
  // a code span glued to Chinese parts it as a space does (those scripts write no space): the prose around it is read
  const SPANS: Array<[string, string, string[], string]> = [
    [
      'English steps that turn Chinese after a comma, around glued code spans',
      `${prose}\n\n1. Check the value at the middle index. If it is equal to the target, return the index.\n2. If \`guess\` is less than the target,说明目标在中间部分的右侧，将\`low\`更新为\`mid + 1\`。\n3. If \`guess\` is greater than the target,说明目标在中间部分的左侧，将\`high\`更新为\`mid - 1\`。\n4. Return -1 when the loop ends.`,
      ['script_switch/fail'],
      'the Chinese clauses were taken into the code span glued to them, so no letter of them counted',
    ],
    [
      'a Chinese answer that glues code spans to its words',
      '这个函数先检查输入是否为空，然后将`low`设为零，将`high`设为数组长度减一。每次循环都计算`mid`的值并与目标比较，直到找到目标或者区间为空为止。',
      [],
      'its own script throughout: a glued span is code, the words around it Chinese prose',
    ],
    [
      'an English answer with spaced code spans',
      `${prose} Set \`low\` to zero and \`high\` to the last index, then compare \`arr[mid]\` with the target.`,
      [],
      'spans set apart by spaces were code before and stay code',
    ],
  ];
  for (const [name, text, expected, why] of SPANS) it(`${name} (${why})`, () => assert.deepEqual(judged(text), expected));
  it('an English answer ending in Cyrillic prose fails', () =>
    assert.deepEqual(
      judged(
        'The function sorts the input array and then removes every duplicate value from it. The result comes back as a new array.\n\nЭта функция сортирует входной массив и удаляет из него повторяющиеся значения. Результат возвращается как новый массив, поэтому исходный массив никогда не меняется. Если нужен другой порядок, передайте функцию сравнения вторым аргументом, и она будет использована вместо обычной.',
      ),
      ['script_switch/fail'],
    ));
});

describe('columns parted by two spaces or a tab are cells, not words strung', () => {
  it('the header row of aligned output alone stays ok', () => {
    assert.equal(analyzeText('               total        used        free      shared  buff/cache   available').verdict, 'ok');
    assert.equal(analyzeText('nombre\tapellido\tciudad\tcorreo\ttelefono\tempresa\tcargo').verdict, 'ok');
  });
  it('the same words with one space between them are still word salad', () => {
    const a = analyzeText('total used free shared buffers cached available swapped mapped pinned dirty');
    assert.equal(a.verdict, 'fail', a.reasons.join('; '));
    assert.match(a.reasons[0] ?? '', /^word_salad/);
  });
});
