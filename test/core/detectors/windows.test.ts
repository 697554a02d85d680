import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { F_GIBBERISH, F_SCRIPT } from '../../../src/core/detectors/windows.js';
import { detect, randomSplit, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

function salad(words: number): string {
  const vocab = [
    'quantum',
    'ledger',
    'purple',
    'engine',
    'forest',
    'mineral',
    'orbit',
    'candle',
    'harbor',
    'silicon',
    'velvet',
    'thunder',
    'garden',
    'crystal',
    'lantern',
    'meadow',
  ];
  return Array.from({ length: words }, (_, i) => vocab[(i * 7 + (i >> 3)) % vocab.length]).join(' ');
}

describe('windows detector', () => {
  it('word salad running to the end fails', () =>
    assert.deepEqual(verdicts(detect('windows', healthyProse(300, 1) + ' ' + salad(900)).findings), ['word_salad/fail!']));
  it('a switch into another script fails', () => {
    const { findings, figures } = detect(
      'windows',
      healthyProse(400, 1) + ' ' + '这是一个关于系统延迟的长篇说明，我们会继续讨论缓存和队列。'.repeat(30),
    );
    assert.deepEqual(verdicts(findings), ['script_switch/fail!']);
    assert.ok(figures.flagged[F_SCRIPT]! >= 3);
  });
  it('odd chars (U+FFFD) in a window are gibberish', () => {
    const text = healthyProse(200, 1) + ' ' + 'ab\ufffdcd \ufffd\ufffdxy '.repeat(200);
    const { figures, findings } = detect('windows', text);
    assert.ok(figures.flagged[F_GIBBERISH]! > 0);
    assert.ok(verdicts(findings).includes('gibberish/fail!'));
  });
  it('healthy prose, code and Chinese text opened in Chinese say nothing', () => {
    assert.deepEqual(verdicts(detect('windows', healthyProse(2000, 8)).findings), []);
    assert.deepEqual(verdicts(detect('windows', '这是一个关于系统延迟的长篇说明，我们会继续讨论缓存和队列。'.repeat(60)).findings), []);
  });
  it('stutter is words doubled, not numbers repeated in data', () => {
    const stutter = healthyProse(100, 1)
      .split(' ')
      .map((w) => `${w} ${w}`)
      .join(' ');
    assert.ok(verdicts(detect('windows', stutter).findings).includes('stutter/fail'));
    const shadows = Array.from({ length: 60 }, (_, i) => `  ${i % 3}px ${i % 2}px 0 rgba(0, 0, 0, 0.${i % 9}),`).join('\n');
    assert.deepEqual(verdicts(detect('windows', '.glow {\n  text-shadow:\n' + shadows + '\n}\n').findings), []);
  });
  it('char soup (random case inside words, digits, few vowels) is gibberish; upper-case constants with digits are not', () => {
    let x = 7;
    const rand = () => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      return x / 0x80000000;
    };
    const soupChars = 'bcdfghjklmnpqrstvwxzBCDFGHJKLMNPQRSTVWXZ0123456789ae';
    const soup = Array.from({ length: 300 }, () =>
      Array.from({ length: 4 + Math.floor(rand() * 6) }, () => soupChars[Math.floor(rand() * soupChars.length)]).join(''),
    ).join(' ');
    assert.ok(verdicts(detect('windows', healthyProse(200, 1) + ' ' + soup).findings).includes('gibberish/fail!'), 'soup');
    // the HTTP/2 constants of a type declaration: HTTP2 and NGHTTP2 mix letters and digits,
    // but every word is in one case, upper (the names) or lower (const, string)
    const parts = ['HEADER', 'STATUS', 'METHOD', 'SETTINGS', 'MAX', 'FRAME', 'SIZE', 'WINDOW', 'PUSH', 'STREAM', 'CONTROL', 'ALLOW'];
    const constants = Array.from(
      { length: 120 },
      (_, i) =>
        `        const ${i % 3 === 0 ? 'NGHTTP2' : 'HTTP2'}_${parts[i % 12]}_${parts[(i * 5 + 3) % 12]}_${parts[(i * 7 + 1) % 12]}: ${i % 2 ? 'string' : 'number'};`,
    ).join('\n');
    assert.deepEqual(verdicts(detect('windows', healthyProse(200, 1) + '\n' + constants).findings), []);
  });
  it('prose that lost its spaces is glued words; an index of long camelCase API names is not', () => {
    const glued = healthyProse(400, 2)
      .split('. ')
      .map((sentence) => sentence.replace(/\s+/g, ''))
      .join('. ');
    assert.ok(
      verdicts(detect('windows', healthyProse(200, 1) + ' ' + glued).findings).some((v) => v.startsWith('word_salad/fail')),
      'glued prose',
    );
    // the names of Node's perf_hooks and web streams docs, 17-31 letters, one per list item
    const names = [
      'performanceResourceTiming',
      'ReadableStreamDefaultController',
      'WritableStreamDefaultWriter',
      'ReadableByteStreamController',
    ];
    const members = ['domainLookupStart', 'secureConnectionStart', 'desiredSize', 'enqueue', 'responseEnd', 'transferSize'];
    const index = Array.from({ length: 80 }, (_, i) => `<li><a href="#x${i}"><code>${names[i % 4]}.${members[i % 6]}</code></a></li>`).join(
      '\n',
    );
    assert.deepEqual(verdicts(detect('windows', healthyProse(200, 1) + '\n' + index).findings), []);
  });
  it("code blocks, inline code and URLs are not the writer's script: a Chinese answer ending in a Python block is no switch", () => {
    const zh = [
      '缓存可以减少数据库的负载。',
      '队列用于在服务之间传递消息。',
      '我们需要注意过期时间和容量。',
      '下面是一个例子，它包含了插入、查找和淘汰的逻辑。',
    ];
    const prose = Array.from({ length: 12 }, (_, i) => zh[i % 4]).join('');
    const code = Array.from(
      { length: 14 },
      (_, i) => `    def get_${i}(self, key: str) -> str | None:\n        return self.items.get(key, self.default_value)\n`,
    ).join('');
    const answer = `${prose}\n\n\`\`\`python\nclass LRUCache:\n${code}\`\`\`\n`;
    assert.deepEqual(verdicts(detect('windows', answer).findings), []);
    // the same in pieces of any size: the fence, span and URL states cross piece boundaries
    for (const seed of [1, 2, 3])
      assert.deepEqual(verdicts(detect('windows', answer, { deltas: randomSplit(answer, seed, 7) }).findings), []);
    // Russian prose full of inline code and links opens in Cyrillic and stays there
    const ru =
      'Вызовите функцию `createReadableStreamDefaultController` и прочитайте https://nodejs.org/api/webstreams.html#readablestream перед началом работы. ';
    const rus = detect('windows', ru.repeat(20));
    assert.deepEqual(verdicts(rus.findings), []);
    assert.equal(
      rus.figures.headScript,
      detect('windows', 'Вызовите функцию и прочитайте перед началом работы. '.repeat(20)).figures.headScript,
    );
    // a collapse into Chinese inside an unclosed code block is still a switch: only Latin letters are the code's
    const switched = detect(
      'windows',
      `${healthyProse(400, 1)}\n\`\`\`\n${'这是一个关于系统延迟的长篇说明，我们会继续讨论缓存和队列。'.repeat(30)}`,
    );
    assert.ok(
      verdicts(switched.findings).some((v) => v.startsWith('script_switch/fail')),
      verdicts(switched.findings).join(),
    );
  });
  it('the opening script is that of the first sentence of prose: badges, links and comments before it do not set it', () => {
    const header = [
      '<div align="center"><img alt="The banner of the project, with its logo" src="https://example.org/banner.svg" width="700" /></div>',
      '<!-- Insert new entries lexicographically by language code.',
      '     For example given below is the same order as these files appear on the page. -->',
      ...['CI on main', 'Discord chat', 'npm version', 'VSCode version', 'Open VSX version', 'Code coverage report'].map(
        (label, i) => `[![${label}][badge-${i}]][url-${i}]`,
      ),
      ...Array.from({ length: 6 }, (_, i) => `  [badge-${i}]: https://badgen.example.org/badge/version/${i}?label=release&color=60a5fa`),
      '[English](https://example.org/README.md) | [Español](https://example.org/README.es.md) | [Français](https://example.org/README.fr.md) | [Polski](https://example.org/README.pl.md) | Русский',
    ].join('\n');
    const ru =
      'Проект предоставляет разработчикам быстрые инструменты для поддержания качества кода, и его можно запустить командой `npx tool check`. ';
    const readme = `${header}\n\n${ru.repeat(24)}`;
    const { figures, findings } = detect('windows', readme);
    assert.deepEqual(verdicts(findings), []);
    assert.equal(figures.headScript, detect('windows', ru.repeat(8)).figures.headScript, 'opens in Cyrillic');
    // a list without sentence ends still gets its opening script, from its first 800 letters
    const items = Array.from({ length: 60 }, (_, i) => `- check the cache entry number ${i} for stale values`).join('\n');
    const list = detect('windows', `${items}\n${'这是一个关于系统延迟的长篇说明，我们会继续讨论缓存和队列。'.repeat(30)}`);
    assert.ok(
      verdicts(list.findings).some((v) => v.startsWith('script_switch/fail')),
      verdicts(list.findings).join(),
    );
  });
  it('reports the opening script', () => assert.equal(detect('windows', healthyProse(300, 1)).figures.headScript, 1));
});
