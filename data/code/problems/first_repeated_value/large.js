/** Distinct values in random order, then a repeat of the first one at the very end. */
export function large(n, rng) {
  const a = Array.from({ length: n - 1 }, (_, i) => i * 3 - n);
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  a.push(a[0]);
  return [a];
}
