/** Values in [0, 10^6] and a random valid k. */
export function large(n, rng) {
  const nums = Array.from({ length: n }, () => Math.floor(rng() * 1000001));
  const pairs = (n * (n - 1)) / 2;
  return [nums, 1 + Math.floor(rng() * pairs)];
}
