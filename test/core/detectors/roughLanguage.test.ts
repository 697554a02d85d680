/**
 * The rough reading of a unit's language by script and function words (roughLanguage.ts): an
 * ASCII unit is read in one pass of its own, any other through a lower-cased copy; both must
 * give the same key for the same words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roughLanguage } from '../../../src/core/detectors/languageId/roughLanguage.js';

const ENGLISH = 'The cat and the dog sat in the garden of the house, and it was quiet there for a while.';

describe('roughLanguage', () => {
  const ROWS: Array<[string, string, string | null]> = [
    ['English prose', ENGLISH, 'Latn:en'],
    ['function words in capitals count as in lower case', ENGLISH.toUpperCase(), 'Latn:en'],
    ['the same words with one accented letter (the other path)', `${ENGLISH} Café.`, 'Latn:en'],
    ['and in capitals with it', `${ENGLISH.toUpperCase()} CAFÉ.`, 'Latn:en'],
    ['Spanish prose', 'El perro y el gato están en la casa de la familia, y es una casa muy grande para todos.', 'Latn:es'],
    ['Russian prose', 'Это был тихий вечер, и мы сидели в саду у дома, когда он пришёл к нам с новостями.', 'Cyrl:ru'],
    ['Korean', '오늘은 날씨가 좋아서 공원에 산책을 갔습니다', 'Hang'],
    ['Japanese', '今日は天気が良いので公園に散歩に行きました', 'Jpan'],
    ['too few words', 'The cat and the dog.', null],
    ['no letters', '1234 5678 -- 90', null],
    ['nothing', '', null],
    ['words of no list', 'Server cache budget packet stream reload election timeout storage commit window.', null],
  ];
  for (const [name, text, want] of ROWS) it(name, () => assert.equal(roughLanguage(text), want));
});
