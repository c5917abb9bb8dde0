/** Sorted values with duplicates; the target sits near the end, so a scan is long. */
export function large(n, rng) {
  const a = Array.from({ length: n }, () => Math.floor(rng() * 4 * n));
  a.sort((x, y) => x - y);
  const target = a[Math.floor(n * 0.9)] + (rng() < 0.5 ? 0 : 1);
  return [a, target];
}
