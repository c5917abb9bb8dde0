/** Values in [-10^6, 10^6] and a target no triple is likely to hit exactly. */
export function large(n, rng) {
  const nums = Array.from(
    { length: n },
    () => 2 * Math.floor(rng() * 1000001) - 1000000,
  );
  return [nums, 2 * Math.floor(rng() * 100000) + 1];
}
