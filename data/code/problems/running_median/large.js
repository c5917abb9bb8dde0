/** Values in [-10^6, 10^6]. */
export function large(n, rng) {
  return [
    Array.from({ length: n }, () => Math.floor(rng() * 2000001) - 1000000),
  ];
}
