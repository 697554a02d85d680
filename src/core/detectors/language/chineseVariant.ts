/**
 * Simplified and Traditional Chinese are one script: the script switch cannot see a text that
 * starts in one and goes on in the other. Common characters that each writes its own way tell
 * them apart: in running text about one character in four is one of them. The text's variant
 * is the one most of its first marked characters are in; a run of marked characters of the
 * other variant, none of its own between them, is a switch. Japanese is left out (its kanji
 * take the simplified form of some characters and the traditional form of others): a text
 * with kana is not read.
 */
import * as charClass from '../../charClass.js';
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { SC_CJK } = charClass;
const { F_CODE, K_SOLO, KIND_MASK, SCRIPT_SHIFT } = tokens;

/** Pairs of characters, simplified then traditional, that are written differently and are not used the other way. */
const PAIRS =
  '们們这這个個国國说說时時会會来來对對学學为為过過还還没沒发發动動经經问問见見现現长長头頭东東车車开開关關门門间間认認' +
  '让讓话話语語读讀写寫书書买買卖賣钱錢银銀电電脑腦网網页頁点點条條样樣种種实實题題应應该該设設计計听聽觉覺边邊远遠进進' +
  '运運选選达達热熱爱愛气氣汉漢华華节節处處业業产產从從众眾优優体體单單万萬与與两兩乐樂习習亲親价價传傳务務区區历歷压壓' +
  '员員团團图圖场場备備够夠妈媽导導层層岁歲带帶师師帮幫广廣张張强強总總战戰报報据據无無显顯机機权權极極构構标標树樹' +
  '检檢欢歡决決况況济濟测測满滿灯燈灵靈环環画畫码碼确確离離积積称稱笔筆类類红紅级級纪紀约約线線练練组組细細终終结結给給' +
  '统統继繼续續维維职職联聯胜勝药藥观觀规規视視览覽订訂议議记記讲講许許论論访訪证證评評识識诉訴词詞试試详詳误誤请請调調' +
  '谈談谢謝负負责責质質购購贵貴费費资資赛賽轮輪软軟转轉轻輕较較辑輯输輸连連适適递遞邮郵释釋钟鐘铁鐵错錯键鍵闻聞队隊阳陽' +
  '际際险險随隨难難项項须須顾顧预預领領颜顏风風飞飛饭飯马馬验驗鱼魚鸟鳥齐齊龙龍讨討';

/** 1: simplified only, 2: traditional only. */
const VARIANT = new Map<number, number>();
for (let i = 0; i + 1 < PAIRS.length; i += 2) {
  const s = PAIRS.charCodeAt(i);
  const t = PAIRS.charCodeAt(i + 1);
  VARIANT.set(s, 1);
  VARIANT.set(t, 2);
}

/** Marked characters that say which variant the text opens in. */
const OPENING_MARKS = 8;

export const VARIANT_NAMES = ['', 'simplified', 'traditional'] as const;

export interface VariantSwitch {
  /** The text's variant (0 when it has no marked character or is Japanese), and the longest run of the other one. */
  variant: number;
  run: number;
  at: number;
}

/** Reads the Han characters of the prose (code left out) of a text; `text` is the whole text. */
export function chineseVariant(t: TokenBuffer, text: string): VariantSwitch {
  const out: VariantSwitch = { variant: 0, run: 0, at: -1 };
  const marks: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < t.n; i++) {
    const info = t.info[i]!;
    if ((info & KIND_MASK) !== K_SOLO || ((info >> SCRIPT_SHIFT) & 15) !== SC_CJK || info & F_CODE) continue;
    const c = text.charCodeAt(t.start[i]!);
    // kana: Japanese, whose kanji mix both forms
    if (c >= 0x3040 && c <= 0x30ff) return out;
    const v = VARIANT.get(c);
    if (v === undefined) continue;
    marks.push(v);
    at.push(t.start[i]!);
  }
  if (marks.length === 0) return out;
  let simplified = 0;
  const opening = Math.min(OPENING_MARKS, marks.length);
  for (let i = 0; i < opening; i++) if (marks[i] === 1) simplified++;
  out.variant = simplified * 2 >= opening ? 1 : 2;
  let run = 0;
  for (let i = 0; i < marks.length; i++) {
    if (marks[i] === out.variant) {
      run = 0;
      continue;
    }
    run++;
    if (run > out.run) {
      out.run = run;
      out.at = at[i - run + 1]!;
    }
  }
  return out;
}
