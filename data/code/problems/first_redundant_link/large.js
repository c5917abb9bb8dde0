export function large(n, rng) {
  // a random tree as a long path with shuffled link order, then one link closing a loop
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const edges = [];
  for (let i = 1; i < n; i++) {
    const back = Math.max(0, i - 1 - Math.floor(rng() * 3));
    edges.push([perm[i], perm[back]]);
  }
  for (let i = edges.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [edges[i], edges[j]] = [edges[j], edges[i]];
  }
  edges.push([perm[0], perm[n - 1]]);
  return [n, edges];
}
