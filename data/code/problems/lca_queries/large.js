export function large(n, rng) {
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const parent = new Array(n).fill(-1);
  for (let i = 1; i < n; i++) {
    parent[perm[i]] = perm[Math.max(0, i - 1 - Math.floor(rng() * 3))];
  }
  const queries = [];
  for (let i = 0; i < n; i++) {
    queries.push([Math.floor(rng() * n), Math.floor(rng() * n)]);
  }
  return [parent, queries];
}
