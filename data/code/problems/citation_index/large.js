/** Citation counts in [0, n): the h-index lands near n / 2. */
export function large(n, rng) {
  return [Array.from({ length: n }, () => Math.floor(rng() * n))];
}
