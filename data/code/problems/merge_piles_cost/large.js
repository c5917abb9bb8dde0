/** Pile sizes in [1, 1000]. */
export function large(n, rng) {
  return [Array.from({ length: n }, () => 1 + Math.floor(rng() * 1000))];
}
