/** Small values in [-10, 10] so that many slices hit k. */
export function large(n, rng) {
  const nums = Array.from({ length: n }, () => Math.floor(rng() * 21) - 10);
  const k = Math.floor(rng() * 21) - 10;
  return [nums, k];
}
