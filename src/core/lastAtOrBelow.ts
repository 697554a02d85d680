/**
 * Index of the last element of an ascending array that is <= x (binary search);
 * 0 when x is below every element, -1 for an empty array.
 */
export function lastAtOrBelow(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
