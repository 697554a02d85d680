/**
 * identifyLanguage scores with eld's table in its own loop (eldLoader.ts): it must give the
 * language and the score eld's own `detect` gives, to the last bit, or every threshold measured
 * with eld would move. Compared on sentences written in many languages and scripts, on inputs at
 * the edges of eld's reading (empty, separators only, lone surrogates, words past 70 chars, texts
 * past its 1,000 chars and 380 bytes) and on thousands of slices of this repository's own texts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eldLoaded, identifyLanguage } from '../../../src/core/detectors/languageId/eldLoader.js';
import { holdoutCorpus, tuningCorpus } from '../../corpus/generate.js';
import { repoPath } from '../../helpers/repoRoot.js';

interface EldResult {
  language: string;
  getScores(): Record<string, number>;
}
const require = createRequire(import.meta.url);
const eld = (require(fileURLToPath(import.meta.resolve('eld/small'))) as { eld: { detect(t: string): EldResult } }).eld;

/** eld's own answer, read as identifyLanguage reports it: the language and the first (highest) score. */
function eldTop(text: string): { language: string; score: number } {
  const r = eld.detect(text);
  const scores = r.getScores();
  for (const lang in scores) return { language: r.language, score: scores[lang]! };
  return { language: r.language, score: 0 };
}

const WRITTEN: Array<[string, string]> = [
  ['en', 'The library closes at six on weekdays, but the reading room stays open until nine for students with a card.'],
  ['de', 'Die Bibliothek schließt werktags um sechs, aber der Lesesaal bleibt für Studierende mit Ausweis bis neun geöffnet.'],
  ['fr', "La bibliothèque ferme à dix-huit heures en semaine, mais la salle de lecture reste ouverte jusqu'à vingt et une heures."],
  ['es', 'La biblioteca cierra a las seis entre semana, pero la sala de lectura sigue abierta hasta las nueve para los estudiantes.'],
  ['it', 'La biblioteca chiude alle sei nei giorni feriali, ma la sala di lettura resta aperta fino alle nove per gli studenti.'],
  ['pt', 'A biblioteca fecha às seis nos dias úteis, mas a sala de leitura fica aberta até às nove para os estudantes.'],
  ['nl', 'De bibliotheek sluit doordeweeks om zes uur, maar de leeszaal blijft tot negen uur open voor studenten met een pas.'],
  ['pl', 'Biblioteka jest zamykana o szóstej w dni powszednie, ale czytelnia pozostaje otwarta do dziewiątej dla studentów.'],
  ['cs', 'Knihovna ve všední dny zavírá v šest, ale studovna zůstává pro studenty s průkazem otevřená až do devíti.'],
  ['ru', 'Библиотека закрывается в шесть по будням, но читальный зал открыт до девяти для студентов с билетом.'],
  ['uk', 'Бібліотека зачиняється о шостій у будні, але читальна зала відкрита до дев’ятої для студентів із квитком.'],
  ['el', 'Η βιβλιοθήκη κλείνει στις έξι τις καθημερινές, αλλά το αναγνωστήριο μένει ανοιχτό μέχρι τις εννέα.'],
  ['tr', 'Kütüphane hafta içi saat altıda kapanıyor, ancak okuma salonu kartı olan öğrenciler için dokuza kadar açık kalıyor.'],
  ['ar', 'تغلق المكتبة في السادسة خلال أيام الأسبوع، لكن قاعة المطالعة تبقى مفتوحة حتى التاسعة للطلاب.'],
  ['he', 'הספרייה נסגרת בשש בימי חול, אבל חדר הקריאה נשאר פתוח עד תשע לסטודנטים עם כרטיס.'],
  ['hi', 'पुस्तकालय सप्ताह के दिनों में छह बजे बंद होता है, लेकिन वाचनालय छात्रों के लिए नौ बजे तक खुला रहता है।'],
  ['zh', '图书馆工作日六点关门，但阅览室对持卡学生开放到晚上九点。'],
  ['ja', '図書館は平日は六時に閉まりますが、閲覧室は学生証を持つ学生のために九時まで開いています。'],
  ['ko', '도서관은 평일 여섯 시에 문을 닫지만 열람실은 학생증이 있는 학생에게 아홉 시까지 열려 있습니다.'],
  ['vi', 'Thư viện đóng cửa lúc sáu giờ vào các ngày trong tuần, nhưng phòng đọc mở cửa đến chín giờ cho sinh viên.'],
  ['th', 'ห้องสมุดปิดเวลาหกโมงเย็นในวันธรรมดา แต่ห้องอ่านหนังสือเปิดถึงสามทุ่มสำหรับนักศึกษา'],
  ['mixed', 'The config is in `~/.config/app.yaml`; see https://example.com/docs#setup — 設定ファイル (설정) ✓ 😀 €42.'],
];

const EDGES: Array<[string, string]> = [
  ['empty', ''],
  ['spaces', '   \n\t  '],
  ['separators only', '!!! ??? ... --- ,,, ;;;'],
  ['a lone high surrogate at the end', 'abc \ud83d'],
  ['a lone low surrogate', 'word \udc00 word'],
  ['a word past 70 chars', `${'abcdefghij'.repeat(12)} and then more words`],
  ['a three-letter word', 'cat'],
  ['a two-letter word', 'ok'],
  ['text past 1,000 chars', 'This sentence is long enough to count. '.repeat(40)],
  ['bytes past 380 inside a word', 'é'.repeat(400)],
  ['emoji words', '😀🎉 '.repeat(120)],
  ['control chars', 'The end.\u0000\u0001\u000b\f'],
  ['digits and codes', 'RTX4090 BRCA1 H2O 3.14 0xdeadbeef 2026-12-05'],
];

describe('identifyLanguage gives eld’s own language and score', () => {
  for (const [lang, text] of WRITTEN) {
    it(`on a sentence in ${lang}`, () => assert.deepEqual(identifyLanguage(text), eldTop(text)));
  }
  for (const [name, text] of EDGES) {
    it(`on ${name}`, () => assert.deepEqual(identifyLanguage(text), eldTop(text)));
  }

  it("on 4,000 slices of the repository's generated corpus and documents (lengths 1-1,500)", () => {
    const docs = repoPath('docs');
    const texts = [
      ...tuningCorpus().map((s) => s.text),
      ...holdoutCorpus().map((s) => s.text),
      ...readdirSync(docs)
        .filter((f) => f.endsWith('.md'))
        .map((f) => readFileSync(join(docs, f), 'utf8')),
    ];
    let seed = 20261205;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const differ: string[] = [];
    for (let k = 0; k < 4000; k++) {
      const t = texts[Math.floor(rand() * texts.length)]!;
      const at = Math.floor(rand() * t.length);
      const slice = t.slice(at, at + 1 + Math.floor(rand() * 1500));
      const ours = identifyLanguage(slice);
      const theirs = eldTop(slice);
      if (ours.language !== theirs.language || ours.score !== theirs.score)
        differ.push(`${JSON.stringify(slice.slice(0, 60))}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
    }
    assert.deepEqual(differ.slice(0, 5), []);
  });

  it('is loaded once a text is identified', () => {
    identifyLanguage('Guten Morgen, wie geht es dir heute?');
    assert.equal(eldLoaded(), true);
  });
});
