/** Values in [-10^6, 10^6] and a limit near zero. */
export function large(n, rng) {
  const nums = Array.from(
    { length: n },
    () => Math.floor(rng() * 2000001) - 1000000,
  );
  const limit = Math.floor(rng() * 200001) - 100000;
  return [nums, limit];
}
