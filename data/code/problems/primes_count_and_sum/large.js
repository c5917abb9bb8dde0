export function large(n, rng) {
  return [n + Math.floor(rng() * 16)];
}
