export function large(n, rng) {
  const edges = [];
  for (let v = 1; v < n; v++) {
    // a long, thin graph: each vertex links to one of the few before it
    edges.push([v, Math.max(0, v - 1 - Math.floor(rng() * 3))]);
  }
  for (let i = 0; i < n; i++) {
    const u = Math.floor(rng() * n);
    const d = 1 + Math.floor(rng() * 5);
    edges.push([u, Math.min(n - 1, u + d)]);
  }
  return [n, edges, Math.floor(rng() * n)];
}
