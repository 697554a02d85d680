/**
 * A Latin term with a Korean particle glued on is a Korean word (latinWithParticle.ts), and
 * Korean prose that glues its particles to quoted terms and opens on one stays Korean and ok;
 * words that glue scripts any other way are still malformed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { latinWithParticle } from '../../../src/core/detectors/language/latinWithParticle.js';

describe('latinWithParticle', () => {
  const rows: Array<[word: string, korean: boolean, why: string]> = [
    ['optional이면서', true, 'a Latin term, then a Korean ending'],
    ['Promise에', true, 'a Latin name, then a Korean particle'],
    ['ES2022를', true, 'digits between are passed over'],
    ['makefile삼이Meet', false, 'Latin, Hangul, Latin again'],
    ['한글Text', false, 'Hangul first'],
    ['iPhoneа', false, 'a Cyrillic ending: healthy text nearly never writes one, collapses often glue a Cyrillic letter on'],
    ['parléвопрос', false, 'two words of two alphabets glued'],
    // a cost, written down: Korean puts a prefix before a Latin term now and then ("non-const"), which switches back
    ['비const여야', false, 'a Korean prefix and ending around a Latin term'],
  ];
  for (const [word, korean, why] of rows)
    it(`${word}: ${korean} (${why})`, () => assert.equal(latinWithParticle(word, 0, word.length), korean));
});

describe('Korean prose with Latin terms in analyzeText', () => {
  const healthy: Array<[string, string]> = [
    ['particles glued to Latin terms', '이 변수는 readonly이면서 optional일 수 없습니다. 빈 Array에 null을 넣지 마세요.'],
    ['particles glued to quoted terms', "모든 'var'를 'const'로 바꾸고 'function'을 'arrow'로 고치세요."],
    ['a sentence that opens on a quoted term', "'instanceof' 뒤에는 'any' 형식, 객체 형식 또는 클래스 형식이 와야 합니다."],
    ['a conditional on quoted values', "'debug'이면 'verbose'이고, 그렇지 않으면 'quiet'입니다."],
    [
      'an answer about a build tool',
      "TypeScript 프로젝트에서는 tsconfig.json의 'strict' 옵션을 켜는 것이 좋습니다. 그러면 null 검사와 암시적 any 검사가 함께 켜지고, React 컴포넌트의 props 형식도 더 엄격하게 확인됩니다. ESLint와 Prettier를 함께 쓰면 코드 스타일도 자동으로 맞출 수 있습니다.",
    ],
  ];
  for (const [name, text] of healthy)
    it(`${name}: ok`, () => assert.equal(analyzeText(text).verdict, 'ok', analyzeText(text).reasons.join('; ')));

  it('a Japanese sentence that opens on a quoted term and goes on in Japanese stays ok', () =>
    assert.equal(analyzeText("'release' の場合は 'minify'、それ以外の場合は 'none'").verdict, 'ok'));

  it('words of Latin and Hangul glued back and forth, inside Korean prose, still fail as gibberish', () => {
    const text =
      '이 스크립트를 저장할 좋은 위치는 홈 디렉터리입니다. makefile삼이Meet environme설정Struc 처리부tion 연결mentaire 구성abus 파일dem 경로ingabus 반복ator 실행ersion 종료uring 시작mentdem 설정uation';
    assert.equal(analyzeText(text).verdict, 'fail');
  });
});
