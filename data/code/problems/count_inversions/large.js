/** Values in [0, n / 2]: many duplicates. */
export function large(n, rng) {
  return [Array.from({ length: n }, () => Math.floor(rng() * (n / 2 + 1)))];
}
