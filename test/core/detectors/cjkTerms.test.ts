/**
 * Latin terms inside Chinese and Japanese prose, written as those languages write them: quoted
 * with no space around (“verbatimModuleSyntax”), listed between CJK marks ("bind"、"call"), more
 * Latin letters than characters in a short sentence. They stay ok; letters of two scripts glued
 * with no mark between, in Latin prose, still fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';

describe('Latin terms inside Chinese and Japanese prose', () => {
  const healthy: Array<[string, string]> = [
    ['a term in curly quotes glued to the characters around it', '启用“verbatimModuleSyntax”时，导入别名无法解析为类型或仅类型声明。'],
    [
      'options in quotes',
      '当“module”设置为“preserve”时，只有在设置“noEmit”或“emitDeclarationOnly”时，才能使用选项“allowImportingTsExtensions”。',
    ],
    ['terms in straight quotes listed between ideographic commas', '对函数启用严格的 "bind"、"call" 和 "apply" 方法。'],
    ['a short sentence with more Latin letters than characters', '目标低于 ES2020 时，BigInt 字面量不可用。'],
    ['a Latin term right after a full-width comma', '当“module”设置为“preserve”时，CommonJS 模块中不允许使用 ESM 语法。'],
    [
      'a Japanese sentence with terms in corner brackets',
      '「Node.js」と「Deno」はどちらもJavaScriptの実行環境です。「npm」でパッケージを入れます。',
    ],
  ];
  for (const [name, text] of healthy)
    it(`${name}: ok`, () => {
      const a = analyzeText(text);
      assert.equal(a.verdict, 'ok', a.reasons.join('; '));
    });

  it('words of several scripts glued with no mark between, after a line of Latin prose, still fail as gibberish', () => {
    const a = analyzeText('andalone schöne\nAuthorization-task.uint modificar artillery日至itm(prev轩辕峡谷言う importantes礞');
    assert.equal(a.verdict, 'fail');
    assert.match(a.reasons[0] ?? '', /^gibberish/);
  });
});
