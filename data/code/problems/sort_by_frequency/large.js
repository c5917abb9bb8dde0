/** Values in [0, n / 4): about four copies each, many frequency ties. */
export function large(n, rng) {
  return [
    Array.from({ length: n }, () => Math.floor(rng() * Math.max(1, n / 4))),
  ];
}
