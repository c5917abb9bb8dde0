/** Values in [-10^6, 10^6], x near zero, k = n / 2. */
export function large(n, rng) {
  const nums = Array.from(
    { length: n },
    () => Math.floor(rng() * 2000001) - 1000000,
  );
  return [nums, Math.floor(rng() * 2001) - 1000, Math.floor(n / 2)];
}
