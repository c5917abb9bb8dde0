// deno-lint-ignore-file no-unused-vars
function lcaQueries(parent, queries) {
  const n = parent.length;
  const children = Array.from({ length: n }, () => []);
  const root = parent.indexOf(-1);
  for (let i = 0; i < n; i++) if (parent[i] !== -1) children[parent[i]].push(i);
  const depth = new Array(n).fill(0);
  const order = [root];
  for (let h = 0; h < order.length; h++) {
    const u = order[h];
    for (const c of children[u]) {
      depth[c] = depth[u] + 1;
      order.push(c);
    }
  }
  let maxDepth = 0;
  for (const d of depth) if (d > maxDepth) maxDepth = d;
  let levels = 1;
  while ((1 << levels) <= maxDepth) levels++;
  const up = [parent.map((p) => (p === -1 ? root : p))];
  for (let k = 1; k < levels; k++) {
    const prev = up[k - 1];
    up.push(prev.map((a) => prev[a]));
  }
  const answers = [];
  for (const q of queries) {
    let u = q[0];
    let v = q[1];
    if (depth[u] < depth[v]) [u, v] = [v, u];
    let diff = depth[u] - depth[v];
    for (let k = 0; diff > 0; k++, diff >>= 1) if (diff & 1) u = up[k][u];
    if (u !== v) {
      for (let k = levels - 1; k >= 0; k--) {
        if (up[k][u] !== up[k][v]) {
          u = up[k][u];
          v = up[k][v];
        }
      }
      u = up[0][u];
    }
    answers.push(u);
  }
  return answers;
}
