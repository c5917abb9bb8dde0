/** A chain of n / 4 overlapping intervals covering [0, 10 * (n / 4)], hidden among 3n / 4 short ones, shuffled. */
export function large(n, rng) {
  const chain = Math.max(1, Math.floor(n / 4));
  const out = [];
  for (let i = 0; i < chain; i++) {
    out.push([10 * i, 10 * i + 10 + Math.floor(rng() * 6)]);
  }
  while (out.length < n) {
    const s = Math.floor(rng() * 10 * chain);
    out.push([s, s + Math.floor(rng() * 16)]);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return [out, 0, 10 * chain];
}
