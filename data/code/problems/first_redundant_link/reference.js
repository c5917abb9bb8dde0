// deno-lint-ignore-file no-unused-vars
function firstRedundantLink(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x) => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (let i = 0; i < edges.length; i++) {
    const a = find(edges[i][0]);
    const b = find(edges[i][1]);
    if (a === b) return i;
    parent[a] = b;
  }
  return -1;
}
