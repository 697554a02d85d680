/**
 * Builds the labeled corpus from the healthy texts in test/corpus/<set>/: long healthy
 * documents (single texts and mixes of several) and degenerate variants of them, one
 * kind of collapse each, starting anywhere from a third of the way in to the last 5%.
 * Deterministic for a given seed (mulberry32), so the corpus test is reproducible.
 *
 *   node --import tsx test/corpus/generate.ts [--set healthy|holdout|fresh] [--seed N] [--out DIR]
 *
 * writes every sample to DIR (one file each) for inspection; without --out it prints counts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NamedText, readTexts } from './paths.js';
import { createRng } from '../../src/prose/random.js';

export type Label = 'healthy' | 'degenerate';

export interface Sample {
  name: string;
  label: Label;
  /** Kind of degeneration ('healthy' for healthy samples). */
  kind: string;
  text: string;
  /** Char offset where the degeneration starts (-1 for healthy samples). */
  onset: number;
}

/** The simulator's seeded PRNG (mulberry32), so a run can be reproduced. */
export const rng = createRng;

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** Texts mostly in Latin script can be mixed into one long document; others stand alone. */
function isLatinText(t: NamedText): boolean {
  const letters = t.text.match(/\p{L}/gu) ?? [];
  const latin = letters.filter((c) => /\p{Script=Latin}/u.test(c)).length;
  return letters.length > 0 && latin / letters.length > 0.9;
}

/** A long healthy document: several different texts one after another. */
function mix(r: Rand, pool: NamedText[], minChars: number, maxChars: number): { name: string; text: string } {
  const target = int(r, minChars, maxChars);
  const order = [...pool].sort(() => r() - 0.5);
  const parts: string[] = [];
  const names: string[] = [];
  let len = 0;
  for (const t of order) {
    if (len >= target) break;
    parts.push(t.text.trim());
    names.push(t.name);
    len += t.text.length + 2;
  }
  return { name: names.join('+'), text: parts.join('\n\n') + '\n' };
}

const NOUNS = {
  countries: [
    'Brazil',
    'Norway',
    'Kenya',
    'Peru',
    'Japan',
    'Egypt',
    'Canada',
    'Chile',
    'Nepal',
    'Spain',
    'Ghana',
    'Iceland',
    'Vietnam',
    'Poland',
    'Mexico',
    'Finland',
    'Morocco',
    'Portugal',
    'Mongolia',
    'Ecuador',
  ],
  animals: [
    'tiger',
    'giraffe',
    'otter',
    'falcon',
    'badger',
    'walrus',
    'lemur',
    'gecko',
    'heron',
    'bison',
    'llama',
    'koala',
    'salmon',
    'beetle',
    'moose',
    'penguin',
    'jackal',
    'marmot',
    'ibis',
    'tapir',
  ],
  body: [
    'elbow',
    'knee',
    'shoulder',
    'ankle',
    'wrist',
    'spine',
    'eyebrow',
    'thumb',
    'kidney',
    'jaw',
    'forehead',
    'lung',
    'ribcage',
    'heel',
    'knuckle',
    'hip',
    'tongue',
    'cheek',
    'palm',
    'shin',
  ],
  things: [
    'lamp',
    'kettle',
    'ladder',
    'pillow',
    'bucket',
    'curtain',
    'saucer',
    'drawer',
    'blanket',
    'spoon',
    'mirror',
    'window',
    'basket',
    'hammer',
    'teapot',
    'cushion',
    'stapler',
    'candle',
    'doormat',
    'shelf',
  ],
  food: [
    'mango',
    'barley',
    'walnut',
    'radish',
    'lentil',
    'pepper',
    'cabbage',
    'apricot',
    'oyster',
    'noodle',
    'pumpkin',
    'ginger',
    'almond',
    'turnip',
    'olive',
    'quince',
    'sorrel',
    'millet',
    'fennel',
    'plum',
  ],
};

const FOREIGN: Record<string, string[]> = {
  russian: [
    'Мы продолжаем обсуждение архитектуры системы и её основных компонентов.',
    'Каждый узел хранит копию журнала и отвечает на запросы лидера.',
    'Если лидер перестаёт отправлять сообщения, начинаются новые выборы.',
    'Это позволяет кластеру сохранять работоспособность при отказе одного сервера.',
    'На практике важно правильно выбрать время ожидания для каждого узла.',
    'Журнал изменений записывается на диск перед отправкой подтверждения.',
  ],
  chinese: [
    '我们继续讨论这个系统的整体结构和主要组成部分。',
    '每个节点都保存一份日志副本，并响应领导者的请求。',
    '如果领导者停止发送消息，集群就会开始新的选举。',
    '这样即使一台服务器出现故障，整个系统仍然可以正常工作。',
    '在实际部署中，为每个节点选择合适的超时时间非常重要。',
    '日志在发送确认之前会先写入磁盘，以保证数据不会丢失。',
  ],
  japanese: [
    'ここからはシステム全体の構成と主な部品について説明します。',
    '各ノードはログの複製を保持し、リーダーからの要求に応答します。',
    'リーダーからの通信が途絶えると、新しい選挙が始まります。',
    'そのため、一台のサーバーが故障してもクラスターは動き続けます。',
    '実際の運用では、タイムアウトの値を慎重に選ぶ必要があります。',
  ],
  arabic: [
    'نواصل الآن مناقشة بنية النظام ومكوناته الرئيسية.',
    'تحتفظ كل عقدة بنسخة من السجل وتستجيب لطلبات القائد.',
    'إذا توقف القائد عن إرسال الرسائل تبدأ عملية انتخاب جديدة.',
    'وهذا يسمح للمجموعة بالاستمرار في العمل عند تعطل خادم واحد.',
    'من المهم في التطبيق العملي اختيار مهلة انتظار مناسبة لكل عقدة.',
  ],
  korean: [
    '이제 시스템의 전체 구조와 주요 구성 요소를 살펴보겠습니다.',
    '각 노드는 로그의 복사본을 보관하고 리더의 요청에 응답합니다.',
    '리더가 메시지를 보내지 않으면 새로운 선거가 시작됩니다.',
    '그래서 서버 한 대가 고장 나도 클러스터는 계속 동작합니다.',
    '실제 운영에서는 시간 제한 값을 신중하게 정해야 합니다.',
  ],
  greek: [
    'Συνεχίζουμε τώρα με την αρχιτεκτονική του συστήματος και τα κύρια μέρη του.',
    'Κάθε κόμβος κρατά ένα αντίγραφο του αρχείου και απαντά στα αιτήματα του αρχηγού.',
    'Αν ο αρχηγός σταματήσει να στέλνει μηνύματα, ξεκινούν νέες εκλογές.',
    'Έτσι το σύστημα συνεχίζει να λειτουργεί όταν ένας διακομιστής αποτύχει.',
  ],
  hindi: [
    'अब हम प्रणाली की संरचना और उसके मुख्य हिस्सों पर चर्चा करते हैं।',
    'हर नोड लॉग की एक प्रति रखता है और नेता के अनुरोधों का उत्तर देता है।',
    'यदि नेता संदेश भेजना बंद कर दे तो नया चुनाव शुरू होता है।',
    'इस तरह एक सर्वर के खराब होने पर भी प्रणाली काम करती रहती है।',
  ],
};

const PUNCT_UNITS = ['!', '！', '?', '.', '…', '?!', '!!!1', '-', '=', '*', '。', '~', '😂', '🙏 ', '! ', '. ', '？', ':)', '#', '_'];
const TAG_UNITS = [
  '</div>',
  '</p></div>',
  '<br>',
  '<br/>\n',
  '</s>',
  '<|im_end|>',
  '</span></span>',
  '<pad>',
  '</code></pre>',
  '</li>\n</ul>\n',
  '</td></tr>',
  '<|endoftext|>',
  '</think>\n',
];
const SWAPS = ['important', 'essential', 'critical', 'key', 'vital', 'central', 'crucial', 'useful'];

/** A collapse continuation of at least `len` chars, generated from `base` (the healthy text) after `cut`. */
type Maker = (r: Rand, base: string, cut: number, len: number) => string;

function words(s: string): string[] {
  return s.split(/\s+/).filter((w) => /\p{L}/u.test(w));
}

function repeatTo(unit: string, len: number): string {
  return unit.repeat(Math.ceil(len / unit.length)).slice(0, len);
}

function sentences(s: string): string[] {
  return (s.match(/[^.!?\n]{20,300}[.!?](?=\s)/g) ?? []).map((x) => x.trim());
}

function pickSentence(r: Rand, base: string): string {
  const ss = sentences(base);
  return ss.length > 0 ? pick(r, ss) : 'The system keeps working as expected.';
}

function pickLine(r: Rand, base: string): string {
  const ls = base.split('\n').filter((l) => l.trim().length >= 12 && l.length <= 140);
  return ls.length > 0 ? pick(r, ls) : 'check the next value';
}

function pickParagraph(r: Rand, base: string, maxLen: number): string {
  const ps = base.split(/\n\s*\n/).filter((p) => p.trim().length >= 150 && p.length <= maxLen);
  return ps.length > 0 ? pick(r, ps).trim() : pickSentence(r, base) + ' ' + pickSentence(r, base);
}

const MAKERS: Record<string, Maker> = {
  word_loop: (r, base, _cut, len) => {
    const w =
      r() < 0.5
        ? pick(r, ['the', 'and', 'of', 'to', 'a', 'is', 'very', 'I', 'it'])
        : pick(r, words(base)).replace(/[^\p{L}\p{N}]/gu, '') || 'the';
    const sep = pick(r, [' ', ' ', ' ', ', ', '\n', '. ']);
    return repeatTo(w + sep, len);
  },
  phrase_loop: (r, base, _cut, len) => {
    const ws = words(base);
    const n = int(r, 2, 7);
    const at = int(r, 0, Math.max(0, ws.length - n));
    return repeatTo(ws.slice(at, at + n).join(' ') + pick(r, [' ', ' ', ', ', ' - ']), len);
  },
  line_loop: (r, base, _cut, len) => repeatTo(pickLine(r, base).trimEnd() + '\n', len),
  sentence_loop: (r, base, _cut, len) => repeatTo(pickSentence(r, base) + pick(r, [' ', ' ', '\n']), len),
  paragraph_loop: (r, base, _cut, len) => {
    const p = pickParagraph(r, base, Math.max(200, Math.min(2100, Math.floor(len / 3))));
    return repeatTo(p + '\n\n', Math.max(len, Math.ceil((p.length + 2) * 3.2)));
  },
  near_loop: (r, base, _cut, len) => {
    const mode = int(r, 0, 3);
    const unit = r() < 0.6 ? pickSentence(r, base) : pickParagraph(r, base, Math.max(200, Math.min(1200, Math.floor(len / 4))));
    const out: string[] = [];
    let total = 0;
    let i = int(r, 1, 20);
    const unitWords = unit.split(' ');
    while (total < Math.max(len, unit.length * 4.2)) {
      let u: string;
      if (mode === 0) u = `Step ${i}: ${unit}`;
      else if (mode === 1) u = `${i}. ${unit}`;
      else if (mode === 2) {
        const ws = [...unitWords];
        const k = int(r, 0, ws.length - 1);
        ws[k] = pick(r, SWAPS);
        u = ws.join(' ');
      } else {
        const ws = [...unitWords];
        if (ws.length > 4 && r() < 0.5) ws.splice(int(r, 0, ws.length - 1), 1);
        else ws.splice(int(r, 0, ws.length - 1), 0, pick(r, SWAPS));
        u = ws.join(' ');
      }
      u += unit.length > 200 ? '\n\n' : r() < 0.3 ? '\n' : ' ';
      out.push(u);
      total += u.length;
      i++;
    }
    return out.join('');
  },
  stutter: (r, base, cut, len) => {
    const src = base.slice(cut) + '\n\n' + base;
    const out: string[] = [];
    let total = 0;
    for (const tok of src.split(/(\s+)/)) {
      if (total >= len) break;
      if (/\p{L}/u.test(tok) && r() < 0.45) {
        const n = int(r, 2, 4);
        const rep = Array.from({ length: n }, () => tok).join(' ');
        out.push(rep);
        total += rep.length;
      } else {
        out.push(tok);
        total += tok.length;
      }
    }
    return out.join('');
  },
  whitespace_flood: (r, _base, _cut, len) => {
    const unit = pick(r, [' ', '\n', '\t', ' \n', '\n\n\n ', '   \t', '\u3000', '\r\n']);
    return repeatTo(unit, len);
  },
  punctuation_flood: (r, _base, _cut, len) => repeatTo(pick(r, PUNCT_UNITS), len),
  tag_spam: (r, _base, _cut, len) => repeatTo(pick(r, TAG_UNITS), len),
  word_salad: (r, _base, _cut, len) => {
    const cats = Object.values(NOUNS);
    const pool = r() < 0.5 ? cats.flat() : [...pick(r, cats), ...pick(r, cats)];
    const sep = pick(r, [' ', ' ', ', ', ' ', '; ']);
    const out: string[] = [];
    let total = 0;
    while (total < len) {
      let w = pick(r, pool);
      if (r() < 0.2) w = w[0]!.toUpperCase() + w.slice(1);
      out.push(w);
      total += w.length + sep.length;
    }
    return out.join(sep);
  },
  glued_words: (r, _base, _cut, len) => {
    const pool = Object.values(NOUNS).flat();
    const camel = r() < 0.4;
    const out: string[] = [];
    let total = 0;
    while (total < len) {
      let w = pick(r, pool).toLowerCase();
      if (camel) w = w[0]!.toUpperCase() + w.slice(1);
      if (r() < 0.04) w += ' ';
      out.push(w);
      total += w.length;
    }
    return out.join('');
  },
  gibberish: (r, base, _cut, len) => {
    const mode = int(r, 0, 3);
    let s = '';
    if (mode === 0) {
      const cons = 'bcdfghjklmnpqrstvwxzkqxzj';
      while (s.length < len) {
        const n = int(r, 2, 9);
        let w = '';
        for (let i = 0; i < n; i++) w += r() < 0.12 ? pick(r, [...'aeiou']) : cons[Math.floor(r() * cons.length)];
        s += w + (r() < 0.08 ? '. ' : ' ');
      }
    } else if (mode === 1) {
      const ranges: Array<[number, number]> = [
        [0x41, 0x7a],
        [0x400, 0x44f],
        [0x3b1, 0x3c9],
        [0x4e00, 0x4fff],
        [0x600, 0x64a],
        [0x10a0, 0x10ff],
        [0x0e01, 0x0e2e],
        [0xac00, 0xac40],
        [0x21, 0x2f],
        [0x2200, 0x22ff],
      ];
      while (s.length < len) {
        const [lo, hi] = pick(r, ranges);
        s += String.fromCharCode(int(r, lo, hi));
        if (r() < 0.15) s += ' ';
      }
    } else if (mode === 2) {
      // mojibake: UTF-8 bytes of accented text read back as Latin-1
      const src =
        'Le café était fermé, mais la crème brûlée restait délicieuse à côté de la forêt. Ça coûte très cher, déjà élevé. Über die Größe der Straße hört man wenig. ';
      const moj = Buffer.from(src, 'utf8').toString('latin1');
      s = repeatTo(moj + ' ' + Buffer.from(pickSentence(r, base) + ' é à ü ö ', 'utf8').toString('latin1') + ' ', len);
      // vary it so it is not one verbatim loop
      s = s.replace(/ /g, () => (r() < 0.1 ? 'Ã' : ' '));
    } else {
      const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#$%&*+/<=>@^_|~{}[]';
      while (s.length < len) {
        const n = int(r, 3, 14);
        for (let i = 0; i < n; i++) s += chars[Math.floor(r() * chars.length)];
        s += ' ';
      }
    }
    return s;
  },
  script_switch: (r, _base, _cut, len) => {
    const lang = pick(r, Object.keys(FOREIGN));
    const ss = FOREIGN[lang]!;
    const spaced = lang !== 'chinese' && lang !== 'japanese';
    let s = '';
    let prev = -1;
    while (s.length < len) {
      let k = Math.floor(r() * ss.length);
      if (k === prev) k = (k + 1) % ss.length;
      prev = k;
      s += ss[k]! + (r() < 0.2 ? '\n\n' : spaced ? ' ' : '');
    }
    return s;
  },
};

export const DEGENERATE_KINDS = Object.keys(MAKERS);

export interface CorpusOptions {
  seed: number;
  /** Healthy long documents mixed from several texts (besides each text alone). */
  healthyMixes: number;
  /** Degenerate samples per kind. */
  perKind: number;
  /** Empty / whitespace-only outputs. */
  empties: number;
}

export function buildCorpus(texts: NamedText[], o: CorpusOptions): Sample[] {
  const r = rng(o.seed);
  const samples: Sample[] = [];
  const latin = texts.filter(isLatinText);
  for (const t of texts) samples.push({ name: `healthy/${t.name}`, label: 'healthy', kind: 'healthy', text: t.text, onset: -1 });
  for (let i = 0; i < o.healthyMixes; i++) {
    const m = mix(r, latin, 6_000, 48_000);
    samples.push({ name: `healthy-mix-${i}/${m.name}`, label: 'healthy', kind: 'healthy', text: m.text, onset: -1 });
  }
  for (let i = 0; i < o.empties; i++) {
    const text = i === 0 ? '' : repeatTo(pick(r, [' ', '\n', ' \n', '\t\n', '\n\n\n']), int(r, 1, 4000));
    samples.push({ name: `empty-${i}`, label: 'degenerate', kind: 'empty', text, onset: 0 });
  }
  for (const kind of DEGENERATE_KINDS) {
    for (let i = 0; i < o.perKind; i++) {
      // a quarter of the collapses cover only the last 5% of a long text
      const late = i % 4 === 3;
      const base =
        late || r() < 0.8
          ? mix(r, latin, late ? 20_000 : 6_000, 48_000)
          : (() => {
              const t = pick(r, texts);
              return { name: t.name, text: t.text };
            })();
      const share = late ? 0.95 : 1 / 3 + r() * (0.95 - 1 / 3);
      let cut = Math.floor(base.text.length * share);
      if (r() < 0.7) {
        // usually the collapse begins at a word boundary
        const ws = base.text.indexOf(' ', cut);
        if (ws > 0) cut = ws + 1;
      }
      const tail = Math.max(1024, base.text.length - cut);
      const degenerate = MAKERS[kind]!(r, base.text, cut, tail);
      samples.push({
        name: `${kind}-${i}/${base.name}@${cut}`,
        label: 'degenerate',
        kind,
        text: base.text.slice(0, cut) + degenerate,
        onset: cut,
      });
    }
  }
  return samples;
}

/** The tuning corpus and the held-out one (different texts and seed). */
export function tuningCorpus(): Sample[] {
  return buildCorpus(readTexts('healthy'), { seed: 20260301, healthyMixes: 160, perKind: 24, empties: 6 });
}

export function holdoutCorpus(): Sample[] {
  return buildCorpus(readTexts('holdout'), { seed: 99173, healthyMixes: 96, perKind: 12, empties: 4 });
}

/**
 * A second held-out set, added after the first one had been looked at: new healthy
 * texts (test/corpus/fresh) and a new seed, measured once before anything was changed.
 */
export function freshCorpus(): Sample[] {
  return buildCorpus(readTexts('fresh'), { seed: 4242017, healthyMixes: 100, perKind: 12, empties: 4 });
}

function main(argv: string[]): void {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const set = arg('--set') ?? 'healthy';
  if (!['healthy', 'holdout', 'fresh'].includes(set)) throw new Error(`--set must be healthy, holdout or fresh, not ${set}`);
  const seed = arg('--seed');
  const base = set === 'holdout' ? holdoutCorpus : set === 'fresh' ? freshCorpus : tuningCorpus;
  const dir = set === 'holdout' ? 'holdout' : set === 'fresh' ? 'fresh' : 'healthy';
  const samples =
    seed === undefined ? base() : buildCorpus(readTexts(dir), { seed: Number(seed), healthyMixes: 100, perKind: 20, empties: 5 });
  const out = arg('--out');
  if (out) {
    mkdirSync(out, { recursive: true });
    samples.forEach((s, i) => {
      writeFileSync(join(out, `${String(i).padStart(4, '0')}-${s.name.replace(/[^A-Za-z0-9._@-]+/g, '_').slice(0, 120)}.txt`), s.text);
    });
  }
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  console.log(`${samples.length} samples (${set})`, Object.fromEntries(counts));
}

if (process.argv[1] && /generate\.[jt]s$/.test(process.argv[1])) main(process.argv.slice(2));
