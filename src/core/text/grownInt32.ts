/** A copy of `a` in a new Int32Array of `size` cells (size >= a.length), the cells past it zero: how a buffer of int cells grows. */
export function grownInt32(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
