/** Values in [-1000, 1000] with k = n / 2, so recomputing each window costs O(n). */
export function large(n, rng) {
  const nums = Array.from({ length: n }, () => Math.floor(rng() * 2001) - 1000);
  return [nums, Math.floor(n / 2)];
}
