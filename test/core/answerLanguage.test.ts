import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import {
  answerLanguage,
  answerLanguageOf,
  describeAnswerLanguage,
  IDENTIFIED_LANGUAGES,
  wrongLanguage,
} from '../../src/core/answerLanguage.js';
import { adherenceFindings, measureAdherence, type ExpectConfig } from '../../src/core/promptAdherence.js';

const ENGLISH = [
  'Sourdough bread needs a lively starter, flour, water and salt, and above all patience while it rises.',
  'Feed the starter the evening before you bake, so that it is bubbly and smells pleasantly sour by morning.',
  'Mix the dough, let it rest for half an hour, then fold it every thirty minutes during the first two hours.',
  'Shape the loaf gently, proof it overnight in the fridge, and bake it in a very hot covered pot.',
].join('\n\n');

const GERMAN = [
  'Der Teig wird danach in eine bemehlte Schüssel gelegt und bleibt über Nacht im Kühlschrank stehen.',
  'Am nächsten Morgen heizt man den Ofen mit dem gusseisernen Topf darin auf die höchste Stufe vor.',
  'Das Brot backt zuerst zwanzig Minuten mit Deckel und danach noch eine halbe Stunde ohne ihn.',
  'Vor dem Anschneiden sollte es mindestens eine Stunde auf einem Gitter vollständig auskühlen.',
].join('\n\n');

const KOREAN_PROSE = [
  '이 스크립트는 로그 파일을 매일 밤 압축해서 백업 폴더로 옮기는 작업을 자동으로 처리합니다.',
  '먼저 백업 폴더가 있는지 확인하고, 없으면 새로 만든 다음 오래된 압축 파일은 삭제합니다.',
].join('\n\n');

const CHINESE = [
  '这个脚本每天晚上会自动压缩日志文件，并把压缩后的文件移动到备份目录里面保存起来，整个过程不需要人工干预。',
  '首先检查备份目录是否存在，如果不存在就先创建它，然后删除三十天以前的旧压缩文件，以免磁盘空间被占满。',
  '最后把执行结果写进系统日志，这样管理员第二天早上就可以很方便地查看备份是否成功完成，出错时也能尽快发现。',
].join('\n\n');

const CODE = `\`\`\`bash
#!/usr/bin/env bash
set -euo pipefail
backup_dir=/var/backups/logs
mkdir -p "$backup_dir"
for f in /var/log/app/*.log; do
  gzip -c "$f" > "$backup_dir/$(basename "$f").$(date +%F).gz"
done
find "$backup_dir" -name '*.gz' -mtime +30 -delete
\`\`\`

\`\`\`text
/var/backups/logs
├── api.log.2026-12-01.gz
├── api.log.2026-12-02.gz
└── worker.log.2026-12-02.gz
\`\`\``;

const expect = (language: string): ExpectConfig => ({ keywords: [], minCoverage: 0.6, headings: 0, language });
const findingsOf = (text: string, language: string) => adherenceFindings(measureAdherence(text, expect(language)), expect(language));

describe('the language a probe expects (expect.language)', () => {
  // rows of [answer, expected language, expected finding kinds, why]
  const rows: Array<[string, string, string[], string]> = [
    [
      `${ENGLISH.split('\n\n')[0]}\n\n${GERMAN}`,
      'en',
      ['wrong_language'],
      'one English sentence, then German to the end: most of it is German',
    ],
    [`${KOREAN_PROSE}\n\n${CHINESE}`, 'ko', ['wrong_language'], 'a Korean opening, then Chinese: most of it is Chinese'],
    [CHINESE, 'ko', ['wrong_language'], 'a Korean prompt answered in Chinese throughout'],
    [ENGLISH, 'en', [], 'an English answer to an English prompt'],
    [`${KOREAN_PROSE}\n\n${CODE}\n\n${CODE}`, 'ko', [], 'a Korean answer that is mostly code: the code is not prose, the prose is Korean'],
    [
      `${ENGLISH}\n\nFor the quiz, each answer option is given in Greek:\n\nα) Το ψωμί χρειάζεται αλεύρι, νερό και αλάτι για να φουσκώσει σωστά.`,
      'en',
      [],
      'an English answer quoting one Greek option: most of it is English',
    ],
    ['42', 'en', [], 'a number: too little prose to judge'],
    ['Das stimmt.', 'en', [], 'one short German sentence: under minLetters, not judged'],
    [CODE, 'en', [], 'code only: no prose to judge'],
  ];
  for (const [text, language, kinds, why] of rows) {
    test(`${why} → ${kinds.length ? kinds.join(', ') : 'ok'}`, () => {
      const found = findingsOf(text, language);
      assert.deepEqual(
        found.map((f) => f.kind),
        kinds,
        JSON.stringify(answerLanguage(text)),
      );
    });
  }

  test('the finding names both languages and the share, and fails the sample', () => {
    const [f] = findingsOf(CHINESE, 'ko');
    assert.equal(f?.severity, 'fail');
    assert.match(f!.detail, /^the answer is in Chinese, 0% of it in Korean \(expect\.language ko\)$/);
  });

  test('without expect.language nothing is identified', () => {
    const a = measureAdherence(GERMAN, { keywords: [], minCoverage: 0.6, headings: 0 });
    assert.equal(a.language, null);
  });

  test('an answer of short units is read as one piece', () => {
    const names = [
      '1. Yamada Taro：日本名字，意思是山和田地。',
      '2. Wang Xiaoming：中国常见的名字，表示聪明。',
      '3. Kim Minjun：韩国的名字，表示聪慧俊秀。',
      '4. Olivia Smith：英国名字，意思是橄榄树。',
      '5. Lucas Müller：德国名字，意思是磨坊主。',
      '6. Sofia Rossi：意大利名字，意思是智慧。',
    ];
    const a = answerLanguage(names.join('\n'));
    assert.ok(a.confidentLetters < 80, JSON.stringify(a));
    assert.equal(a.whole?.language, 'zh');
    // judged only when that reading is confident: eld gives this list 0.64, under unitConfidence (a known miss, as
    // corpus-real3 d-031's 0.60: docs/detection.md)
    assert.ok(a.whole!.score < 0.7 && a.whole!.score > 0.6, String(a.whole!.score));
    assert.equal(answerLanguageOf(a), null);
    assert.match(describeAnswerLanguage(a), /^Chinese read as one piece \(score 0\.6\d, \d+ letters\)$/);
    assert.equal(answerLanguageOf(a, { unitLetters: 40, unitConfidence: 0.6, minLetters: 80, expectedShare: 0.5 })?.language, 'zh');
  });

  test('wrongLanguage takes the thresholds it is given: a share under expectedShare fails, one at it passes', () => {
    const a = {
      letters: [
        ['de', 60],
        ['en', 40],
      ] as Array<[string, number]>,
      confidentLetters: 100,
      whole: null,
    };
    const t = { unitLetters: 40, unitConfidence: 0.7, minLetters: 80, expectedShare: 0.4 };
    assert.equal(wrongLanguage(a, 'en', t), null);
    assert.deepEqual(wrongLanguage(a, 'en', { ...t, expectedShare: 0.41 }), { language: 'de', share: 0.4 });
    assert.equal(wrongLanguage(a, 'en', { ...t, minLetters: 101 }), null);
  });

  test("the codes config accepts are the identifier's own", () => {
    const require = createRequire(import.meta.url);
    const mod = require(fileURLToPath(import.meta.resolve('eld/small'))) as { eld: { info(): { Languages: Record<string, string> } } };
    assert.deepEqual([...IDENTIFIED_LANGUAGES], Object.values(mod.eld.info().Languages));
  });
});
