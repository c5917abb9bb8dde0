/** Sorted values in [-10n, 10n], about half negative. */
export function large(n, rng) {
  const a = Array.from(
    { length: n },
    () => Math.floor(rng() * 20 * n) - 10 * n,
  );
  a.sort((x, y) => x - y);
  return [a];
}
