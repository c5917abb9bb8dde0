// deno-lint-ignore-file no-unused-vars
function componentsAfterEachEdge(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x) => {
    let root = x;
    while (parent[root] !== root) root = parent[root];
    while (parent[x] !== root) {
      const next = parent[x];
      parent[x] = root;
      x = next;
    }
    return root;
  };
  let groups = n;
  const result = [];
  for (const [u, v] of edges) {
    const a = find(u);
    const b = find(v);
    if (a !== b) {
      parent[b] = a;
      groups--;
    }
    result.push(groups);
  }
  return result;
}
