/**
 * The analyzer's loop: the tokenizer takes the text as it streams (O(1) per char, any split
 * gives the same tokens), the gzip tracker compresses each finished 32 KB block, and the
 * detectors read the tokens when figures are asked for: every detector for a full analysis
 * (O(n) in the text), or only those that can be certain, on the last tokens, for the live
 * check that aborts a collapsed stream (bounded, whatever the length).
 */
import { CompressionTracker, type CompressionFigures } from './compression.js';
import type { Detector, JudgeContext, Scan } from './detectors/detector.js';
import type { Finding } from './detectors/finding.js';
import { DETECTORS, type Figures, type FindingKind, type Thresholds } from './detectors/registry.js';
import { flatString } from './text/flatString.js';
import { Tokenizer } from './text/tokenizer.js';
import type { TokenBuffer } from './text/tokens.js';
import type { NgramsWanted } from './ngramFractions.js';
import { textFigures, type TextFigures } from './textFigures.js';

/** Figures of the tokenizer and the reported (unjudged) figures. */
export interface BaseFigures {
  chars: number;
  bytes: number;
  compression: CompressionFigures;
  text: TextFigures;
}

type AnyDetector = Detector<object, FindingKind, Detector['thresholds']>;

/** Chars of short deltas kept before they are tokenized together (Engine.push). */
const BATCH_CHARS = 256;

export class Engine {
  private readonly tokenizer: Tokenizer;
  private readonly compression: CompressionTracker;
  /** Deltas pushed and not yet tokenized: short ones are tokenized in batches (see push). */
  private pending: string[] = [];
  private pendingChars = 0;

  /** `tokens`: the buffer the tokens go to (a new one sized for `expectedChars` when not given). */
  constructor(expectedChars = 0, tokens?: TokenBuffer) {
    this.tokenizer = new Tokenizer(expectedChars, tokens);
    this.compression = new CompressionTracker(this.tokenizer.store);
  }

  /** Chars pushed so far, the batch not yet tokenized included. */
  get length(): number {
    return this.tokenizer.length + this.pendingChars;
  }

  slice(from: number, to: number): string {
    this.flush();
    return this.tokenizer.slice(from, to);
  }

  /**
   * Takes the next piece of text. A stream's deltas are a few chars each: they are kept and
   * tokenized together once BATCH_CHARS have come, or when anything reads the text (figures,
   * the live check, a slice). The tokenizer gives the same tokens however the text is split, so
   * a batch changes when the work is done, not its result; what it saves is the set-up of a scan
   * per delta.
   */
  push(delta: string): void {
    if (delta.length === 0) return;
    if (this.pendingChars === 0 && delta.length >= BATCH_CHARS) {
      this.feed(delta);
      return;
    }
    this.pending.push(delta);
    this.pendingChars += delta.length;
    if (this.pendingChars >= BATCH_CHARS) this.flush();
  }

  /** Tokenizes the batch kept so far. */
  private flush(): void {
    if (this.pendingChars === 0) return;
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    this.feed(text);
  }

  private feed(text: string): void {
    this.tokenizer.push(text);
    this.compression.advance(this.tokenizer.length);
  }

  /**
   * Every detector's figures and the reported figures for the text so far (as if it ended here).
   * `ngrams`: all the word n-gram fractions (the learned score reads them), or only the two an
   * analysis reports when nothing scores the text.
   */
  figures(ngrams: NgramsWanted = 'all'): { base: BaseFigures; detectors: Figures } {
    this.flush();
    return this.tokenizer.snapshot(() => {
      const scan = this.scan(false);
      const detectors = {} as Record<string, object>;
      for (const d of DETECTORS as readonly AnyDetector[]) detectors[d.name] = d.figures(scan, 0);
      const base: BaseFigures = {
        chars: scan.chars,
        bytes: scan.bytes,
        compression: this.compression.figures(scan.chars),
        text: textFigures(scan, ngrams),
      };
      return { base, detectors: detectors as Figures };
    });
  }

  /** The figures of the detectors that can be certain, each reading only its last tokens: the live check. */
  liveFigures(): { chars: number; detectors: Partial<Figures> } {
    this.flush();
    return this.tokenizer.snapshot(() => {
      const scan = this.scan(true);
      const detectors = {} as Record<string, object>;
      for (const d of DETECTORS as readonly AnyDetector[]) {
        if (d.liveTokens === undefined) continue;
        detectors[d.name] = d.figures(scan, Math.max(0, scan.tokens.n - d.liveTokens));
      }
      return { chars: scan.chars, detectors: detectors as Partial<Figures> };
    });
  }

  private scan(live: boolean): Scan {
    const tk = this.tokenizer;
    let counts: Int32Array | null = null;
    let text: string | null = null;
    return {
      live,
      chars: tk.length,
      slice: (a, b) => tk.slice(a, b),
      text: () => {
        // flat: the detectors read it char by char, and a view (a slice, joined pieces) is slower to read (flatString.ts)
        text ??= flatString(tk.slice(0, tk.length));
        return text;
      },
      tokens: tk.tokens,
      spaces: tk.spaces,
      idFlags: tk.idFlags,
      idCount: tk.idCount,
      counts: () => {
        if (!counts) {
          const t = tk.tokens;
          counts = new Int32Array(tk.idCount);
          for (let i = 0; i < t.n; i++) counts[t.id[i]!]!++;
        }
        return counts;
      },
      bytes: tk.bytes,
      oddSeen: tk.oddSeen,
      markSeen: tk.markSeen,
    };
  }
}

/** Every detector's findings for the figures given, in registry order. */
export function judgeAll(figures: Partial<Figures>, thresholds: Thresholds, ctx: JudgeContext): Array<Finding<FindingKind>> {
  const out: Array<Finding<FindingKind>> = [];
  for (const d of DETECTORS as readonly AnyDetector[]) {
    const f = (figures as Record<string, object | undefined>)[d.name];
    if (f) out.push(...d.judge(f, thresholds as unknown as Record<string, number>, ctx));
  }
  return out;
}
