/** Random values with k = n / 4. */
export function large(n, rng) {
  const nums = Array.from(
    { length: n },
    () => Math.floor(rng() * 2000001) - 1000000,
  );
  return [nums, Math.max(1, Math.floor(n / 4))];
}
