/**
 * Latin terms inside Chinese and Japanese prose, written as those languages write them: quoted
 * with no space around (“exactOptionalPropertyTypes”), listed between CJK marks ("map"、"filter"), more
 * Latin letters than characters in a short sentence. They stay ok; letters of two scripts glued
 * with no mark between, in Latin prose, still fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { detect } from '../../helpers/detectorHarness.js';

describe('Latin terms inside Chinese and Japanese prose', () => {
  const healthy: Array<[string, string]> = [
    ['a term in curly quotes glued to the characters around it', '开启“exactOptionalPropertyTypes”时，可选属性无法赋值为未定义。'],
    ['options in quotes', '当“target”设置为“es5”时，只有在启用“downlevelIteration”或“importHelpers”时，才能使用选项“lib”。'],
    ['terms in straight quotes listed between ideographic commas', '为数组启用只读的 "map"、"filter" 和 "reduce" 方法。'],
    ['a short sentence with more Latin letters than characters', '版本低于 ES2017 时，AsyncIterator 类型不可用。'],
    ['a Latin term right after a full-width comma', '当“module”设置为“commonjs”时，TypeScript 模块中不推荐使用 ESM 语法。'],
    [
      'a Japanese sentence with terms in corner brackets',
      '「Node.js」と「Deno」はどちらもJavaScriptの実行環境です。「npm」でパッケージを入れます。',
    ],
    // the dashes are the option's own: the quote before them is what parts the two scripts
    ['command-line options in curly quotes', '模块“{0}”已解析为“{1}”，但未设置“--allowArbitraryExtensions”。'],
    [
      'options in quotes after a term',
      '允许导入包含 TypeScript 文件扩展名。需要设置“--moduleResolution bundler”以及“--noEmit”或“--emitDeclarationOnly”。',
    ],
  ];
  for (const [name, text] of healthy)
    it(`${name}: ok`, () => {
      const a = analyzeText(text);
      assert.equal(a.verdict, 'ok', a.reasons.join('; '));
    });

  it('a Latin word glued by a hyphen right after Chinese characters, no option of its own, still reads as glue', () => {
    const f = detect('language', '模块已解析为-allowArbitraryExtensions并且').figures;
    assert.equal(f.malformed, 1);
  });

  it('words of several scripts glued with no mark between, after a line of Latin prose, still fail as gibberish', () => {
    const a = analyzeText('overview récent\nMeasurement-run.cfg consultar bicycle金木hrx(bar火山湖泊見える ventanas鳥');
    assert.equal(a.verdict, 'fail');
    assert.match(a.reasons[0] ?? '', /^gibberish/);
  });
});

describe('a text with no clause of prose to open it: its script is the one its writing is mostly in', () => {
  it('Chinese descriptions of options, each line indented, beside long Latin flags stay ok', () => {
    // indented lines are asides for the opening, so no clause opens the text; counted a letter a char, the flags'
    // 25 Latin letters outweighed 17 Chinese characters, which write as much as 40
    const text = '      --no-follow-symbolic-links  复制时不跟随符号链接，\n                                  只复制链接本身\n';
    const a = analyzeText(text);
    assert.equal(a.verdict, 'ok', a.reasons.join('; '));
  });
});
