/** Random values in [0, 2n): many short runs. */
export function large(n, rng) {
  return [Array.from({ length: n }, () => Math.floor(rng() * 2 * n))];
}
