export function large(n, rng) {
  const edges = [];
  for (let v = 1; v < n; v++) {
    edges.push([Math.floor(rng() * v), v, Math.floor(rng() * 1000000)]);
  }
  for (let i = 0; i < n; i++) {
    edges.push([
      Math.floor(rng() * n),
      Math.floor(rng() * n),
      Math.floor(rng() * 1000),
    ]);
  }
  return [n, edges, 0];
}
