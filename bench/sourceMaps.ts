/**
 * The source file a position of the bundled command line (dist/cli) came from, read from the
 * bundle's source map, so that a CPU profile of a daemon started from the bundle is attributed
 * by source file as one started from dist/src is. Only the source index of each mapping is kept.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Decoded {
  sources: string[];
  /** Per generated line: ascending generated columns and the source index of each. */
  lines: Array<{ cols: number[]; src: number[] }>;
}

const cache = new Map<string, Decoded | null>();
const B64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

/** The values of one base64 VLQ segment. */
function vlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.get(ch) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

function decode(file: string): Decoded | null {
  let map: { sources: string[]; mappings: string };
  try {
    map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  } catch {
    return null;
  }
  const lines: Decoded['lines'] = [];
  let src = 0;
  for (const line of map.mappings.split(';')) {
    const cols: number[] = [];
    const srcs: number[] = [];
    let col = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const v = vlq(seg);
      col += v[0] ?? 0;
      if (v.length >= 4) {
        src += v[1]!;
        cols.push(col);
        srcs.push(src);
      }
    }
    lines.push({ cols, src: srcs });
  }
  return { sources: map.sources, lines };
}

/** The source path (as the map names it, e.g. "../../src/core/engine.ts") of a 0-based line and column of a bundled file URL; null when unknown. */
export function originalSource(url: string, line: number, column: number): string | null {
  if (!url.startsWith('file:') || !url.includes('/dist/cli/')) return null;
  const file = fileURLToPath(url);
  if (!cache.has(file)) cache.set(file, decode(file));
  const d = cache.get(file);
  const l = d?.lines[line];
  if (!d || !l || l.cols.length === 0) return null;
  let lo = 0;
  let hi = l.cols.length - 1;
  if (column < l.cols[0]!) return d.sources[l.src[0]!] ?? null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (l.cols[mid]! <= column) lo = mid;
    else hi = mid - 1;
  }
  return d.sources[l.src[lo]!] ?? null;
}
