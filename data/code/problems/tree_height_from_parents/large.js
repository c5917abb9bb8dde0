export function large(n, rng) {
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const parent = new Array(n).fill(-1);
  for (let i = 1; i < n; i++) {
    // attach to one of the last few nodes: a deep, bushy tree
    parent[perm[i]] = perm[Math.max(0, i - 1 - Math.floor(rng() * 4))];
  }
  return [parent];
}
