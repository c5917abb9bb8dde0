export function large(n, rng) {
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const edges = [];
  // a long path through a quarter of the vertices (deep for recursive searches)
  const q = Math.floor(n / 4);
  for (let i = 1; i < q; i++) edges.push([perm[i - 1], perm[i]]);
  // random edges among the rest make a few large components and some small ones
  for (let i = 0; i < Math.floor(n * 0.55); i++) {
    const a = perm[q + Math.floor(rng() * (n - q))];
    const b = perm[q + Math.floor(rng() * (n - q))];
    edges.push([a, b]);
  }
  return [n, edges];
}
