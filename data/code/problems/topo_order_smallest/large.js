export function large(n, rng) {
  // a DAG along a random permutation, so available tasks are spread over all numbers
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const edges = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = Math.floor(rng() * n);
    const b = Math.floor(rng() * n);
    if (a !== b) edges.push(a < b ? [perm[a], perm[b]] : [perm[b], perm[a]]);
  }
  return [n, edges];
}
