/** A noisy decreasing sequence: most elements have no greater one to their right. */
export function large(n, rng) {
  return [
    Array.from({ length: n }, (_, i) => 4 * (n - i) + Math.floor(rng() * 8)),
  ];
}
