export function large(n, rng) {
  const edges = [];
  for (let i = 0; i < n; i++) {
    edges.push([Math.floor(rng() * n), Math.floor(rng() * n)]);
  }
  return [n, edges];
}
