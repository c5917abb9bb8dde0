export function large(n, rng) {
  const base = Math.floor(rng() * 2 ** 40) - 2 ** 39;
  const mod = 1000000000 + Math.floor(rng() * 1000000000);
  return [base, n, mod];
}
