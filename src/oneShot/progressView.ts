import type { SampleResult } from '../probe/probeTypes.js';
import type { LiveState } from '../probe/probeDeps.js';
import { sampleEndLine, sampleLabel } from './sampleReport.js';
import { terminalSafe } from './terminalSafe.js';

/** What the one-shot runner tells the person watching. */
export interface ProgressView {
  started(key: string, target: string, probe: string, index: number, maxTokens: number): void;
  progress(key: string, tokens: number, elapsedSeconds: number): void;
  /** A state other than streaming: "loop suspected at token N", "aborted: collapsed". */
  state(key: string, state: string): void;
  finished(key: string, target: string, probe: string, sample: SampleResult): void;
  close(): void;
}

/**
 * A live check's state as the progress line shows it: "sentence loop suspected at token 1834",
 * "aborted: char flood from token 2210", "word loop from token 900 (will not recover)".
 */
export function describeLive(live: LiveState): string {
  const what = `${live.kind.replace(/_/g, ' ')}${live.channel === 'reasoning' ? ' in the reasoning' : ''}`;
  const at = live.atToken === null ? '' : live.state === 'suspected' ? ` at token ${live.atToken}` : ` from token ${live.atToken}`;
  if (live.state === 'suspected') return `${what} suspected${at}`;
  if (live.state === 'aborted') return `aborted: ${what}${at}`;
  return `${what}${at} (will not recover)`;
}

/** Off a TTY (CI logs): one line when each sample starts and one when it ends; no redraws. */
export function plainProgress(write: (s: string) => void): ProgressView {
  return {
    started: (_key, target, probe, index, maxTokens) => write(`start ${sampleLabel(target, probe, index)} (max ${maxTokens} tokens)\n`),
    progress: () => {},
    state: () => {},
    finished: (_key, target, probe, sample) => write(`end   ${sampleEndLine(target, probe, sample)}\n`),
    close: () => {},
  };
}

interface Live {
  label: string;
  maxTokens: number;
  tokens: number;
  elapsed: number;
  state: string;
}

/** How often the live lines are redrawn at most. */
export const REDRAW_MS = 100;

/**
 * On a TTY: one live line per running sample (tokens so far of max, tokens/s, elapsed, state),
 * redrawn in place with plain ANSI (cursor up, erase line); an ended sample's line is printed
 * once above the live ones. `write` is the terminal itself (the cursor movements must reach
 * it), so each line drawn is made terminal-safe here: it can hold a target's error message.
 */
export function ttyProgress(write: (s: string) => void, columns = 100): ProgressView {
  const live = new Map<string, Live>();
  let drawn = 0;
  let dirty = false;
  const fit = (s: string) => {
    const safe = terminalSafe(s);
    return safe.length > columns - 1 ? safe.slice(0, columns - 2) + '…' : safe;
  };
  const redraw = (above = '') => {
    let out = drawn ? `\x1b[${drawn}A` : '';
    const aboveLines = above.split('\n').filter(Boolean);
    out += aboveLines.map((l) => `\r\x1b[2K${terminalSafe(l)}\n`).join('');
    for (const l of live.values()) {
      const rate = l.elapsed > 0 ? Math.round(l.tokens / l.elapsed) : 0;
      out += `\r\x1b[2K${fit(`${l.label}  ${l.tokens}/${l.maxTokens} tokens  ${rate} tokens/s  ${l.elapsed.toFixed(1)} s  ${l.state}`)}\n`;
    }
    // lines left over from a taller draw are erased
    const printed = aboveLines.length + live.size;
    for (let i = printed; i < drawn; i++) out += '\r\x1b[2K\n';
    if (drawn > printed) out += `\x1b[${drawn - printed}A`;
    drawn = live.size;
    dirty = false;
    write(out);
  };
  const timer = setInterval(() => {
    if (dirty) redraw();
  }, REDRAW_MS);
  timer.unref();
  return {
    started(key, target, probe, index, maxTokens) {
      live.set(key, { label: sampleLabel(target, probe, index), maxTokens, tokens: 0, elapsed: 0, state: 'waiting' });
      redraw();
    },
    progress(key, tokens, elapsed) {
      const l = live.get(key);
      if (!l) return;
      l.tokens = tokens;
      l.elapsed = elapsed;
      if (l.state === 'waiting') l.state = 'streaming';
      dirty = true;
    },
    state(key, state) {
      const l = live.get(key);
      if (l) l.state = state;
      dirty = true;
    },
    finished(key, target, probe, sample) {
      live.delete(key);
      redraw(sampleEndLine(target, probe, sample));
    },
    close() {
      clearInterval(timer);
      if (dirty) redraw();
    },
  };
}
