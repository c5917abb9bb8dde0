/** Meetings starting in [0, 10n) lasting 1..50. */
export function large(n, rng) {
  return [Array.from({ length: n }, () => {
    const s = Math.floor(rng() * 10 * n);
    return [s, s + 1 + Math.floor(rng() * 50)];
  })];
}
