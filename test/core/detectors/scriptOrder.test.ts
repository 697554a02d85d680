/** Words of Latin and Cyrillic letters in an order no language writes (scriptOrder.ts), and the ones Russian prose writes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { oddScriptOrder } from '../../../src/core/detectors/language/scriptOrder.js';

describe('oddScriptOrder', () => {
  const rows: Array<[word: string, odd: boolean, why: string]> = [
    ['Сноopp', true, 'a Cyrillic letter before a lower-case Latin one'],
    ['прежinvoke', true, 'a Cyrillic stem, then a lower-case Latin word'],
    ['Geplaatstвенiones', true, 'Latin, Cyrillic, Latin again'],
    ['Schдum', true, 'a Cyrillic letter inside a Latin word'],
    ['iPhoneа', false, 'a Cyrillic ending on a Latin name, as Russian declines it'],
    ['GPUшка', false, 'a Cyrillic suffix on a Latin acronym'],
    ['ЯндексGPT', false, 'a Cyrillic name with a Latin acronym: one switch, into capitals'],
    ['Привет', false, 'one script'],
    ['naïveté', false, 'Latin with diacritics is one script'],
    ['λpeak', false, 'Greek and Latin are not read: a unit in science prose'],
    ['сe', false, 'a word of letters both alphabets write alike tells nothing (a Bulgarian се typed with a Latin e)'],
    ['локалiзацiя', false, 'a Latin i typed inside a Ukrainian word between Cyrillic letters: a slip'],
    ['ИМЯФАЙЛАaa', false, 'twins at the end of a word of many Cyrillic letters read as Cyrillic'],
    ['описанияPostScript', false, 'a Latin name glued after a Cyrillic word: its twins P, o, s, t keep their own script'],
    ['Оw', true, 'a twin at the edge of a word of one letter of the other script: two scripts, as junk glues them'],
    ['прежiнvoke', true, 'a twin between Cyrillic letters, then a lower-case Latin word'],
  ];
  for (const [word, odd, why] of rows) it(`${word}: ${odd} (${why})`, () => assert.equal(oddScriptOrder(word, 0, word.length), odd));
});

describe('words of two alphabets in analyzeText', () => {
  it('a Russian paragraph with a declined Latin name and a Latin acronym stays ok', () => {
    const text =
      'Вчера я наконец купил новый телефон. Долго выбирал между разными моделями, читал обзоры и сравнивал цены в нескольких магазинах. В итоге остановился на iPhoneе, потому что у меня уже есть ноутбук той же фирмы. Чтобы перенести контакты и фотографии, я спросил совета у ЯндексGPT, и он подробно объяснил, что нужно сделать. Перенос занял около часа, и теперь всё работает как прежде.';
    assert.equal(analyzeText(text).verdict, 'ok');
  });
  it('an English answer opening on a line of glued pieces of two vocabularies fails as gibberish', () => {
    const text =
      'Here: Владельцы /******/Geplaatstвенiones: Произвольный формат, Сноopp Dogg\n\nThe river runs past the old mill, where the miller used to grind wheat for the whole valley. In spring the water rises and the wheel turns faster; in late summer it slows to a crawl, and the children wade across the shallows to reach the orchard on the far bank.';
    const a = analyzeText(text);
    assert.equal(a.verdict, 'fail');
    assert.match(a.reasons[0] ?? '', /^gibberish: 2 words whose Latin and Cyrillic letters/);
  });
  it('an identifier whose parts are of two scripts is labels, not a word: a Ukrainian sentence naming one stays ok', () => {
    const text =
      'Щоб змінити розкладку клавіатури, відкрийте налаштування системи і в полі введення вкажіть назву у форматі розкладка_xkb, після чого збережіть зміни і перезапустіть сеанс, щоб нова розкладка почала діяти.';
    assert.equal(analyzeText(text).verdict, 'ok');
  });
  it('the same word inside a code block is code, not prose', () => {
    const text =
      'The function below keeps the old name for compatibility.\n\n```js\nconst Сноopp = load();\nexport default Сноopp;\n```\n\nCall it once at start-up and keep the result; every later call returns the same object.';
    assert.equal(analyzeText(text).verdict, 'ok');
  });
});
