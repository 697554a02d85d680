import { analyzedTexts, analyzeFile, check, runCases } from './shared.js';

/**
 * Issue 35 (item 1, the text's script): `analyze` from outside on answers whose own script is
 * only seen in their prose. A Korean answer that quotes a query, spells out a name in English
 * in brackets and is mostly code is Korean (ok); an English answer that ends in Russian prose
 * still fails as a switch. A few seconds.
 */

const CODE = Array.from(
  { length: 16 },
  (_, i) => `def step_${i}(items, limit=${i}):\n    return [x for x in items if x is not None and x < limit]`,
).join('\n');

const TEXTS = {
  koreanCode: `Flask 프레임워크로 (a small web framework for Python) 간단한 API 서버를 만드는 방법입니다.\n\n\`\`\`python\n${CODE}\n\`\`\`\n\n실행하면 정렬된 목록이 출력됩니다.`,
  koreanQuery:
    '물론입니다! 쿼리 "SELECT NAME FROM USERS JOIN ORDERS ON THE ID BY DATE"를 Datalog 규칙으로 바꾸겠습니다.\n\n```datalog\nresult(N) :- users(N, I), orders(I, D).\n```\n\n이 규칙은 두 테이블에서 아이디가 같은 행을 결합합니다.',
  englishRussian:
    'The function sorts the input array and then removes every duplicate value from it. The result comes back as a new array.\n\nЭта функция сортирует входной массив и удаляет из него повторяющиеся значения. Результат возвращается как новый массив, поэтому исходный массив никогда не меняется. Если нужен другой порядок, передайте функцию сравнения вторым аргументом, и она будет использована вместо обычной.',
};

export async function prosescriptCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const { file, healthy } = analyzedTexts(root, 'prosescript', TEXTS);
  await runCases(
    [
      ['analyze: a Korean answer, 80% code, a name spelled out in English brackets -> ok', () => healthy('koreanCode')],
      ['analyze: a Korean answer quoting an SQL query with its function words -> ok', () => healthy('koreanQuery')],
      [
        'analyze: an English answer ending in Russian prose -> fail script_switch',
        async () => {
          const a = await analyzeFile(file('englishRussian'));
          check(a.code === 1 && a.verdict === 'fail' && a.reason.startsWith('script_switch'), `exit ${a.code}, ${a.verdict}: ${a.reason}`);
          return `exit 1, ${a.reason}`;
        },
      ],
    ],
    results,
  );
}
