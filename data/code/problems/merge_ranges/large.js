/** Short ranges scattered over [0, 100n]: mostly disjoint, some overlapping. */
export function large(n, rng) {
  return [Array.from({ length: n }, () => {
    const s = Math.floor(rng() * 100 * n);
    return [s, s + Math.floor(rng() * 50)];
  })];
}
