// deno-lint-ignore-file no-unused-vars
function componentsAfterEachEdge(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const size = new Array(n).fill(1);
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
    let a = find(u);
    let b = find(v);
    if (a !== b) {
      if (size[a] < size[b]) [a, b] = [b, a];
      parent[b] = a;
      size[a] += size[b];
      groups--;
    }
    result.push(groups);
  }
  return result;
}
