/**
 * Values in [0, 4n] (the range grows with n, so the reference's binary
 * search over distances takes about log n steps) and a random valid k.
 */
export function large(n, rng) {
  const nums = Array.from({ length: n }, () => Math.floor(rng() * (4 * n + 1)));
  const pairs = (n * (n - 1)) / 2;
  return [nums, 1 + Math.floor(rng() * pairs)];
}
