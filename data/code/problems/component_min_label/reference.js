// deno-lint-ignore-file no-unused-vars
function componentMinLabel(n, edges) {
  const adj = Array.from({ length: n }, () => []);
  for (const [u, v] of edges) {
    adj[u].push(v);
    adj[v].push(u);
  }
  const label = new Array(n).fill(-1);
  for (let start = 0; start < n; start++) {
    if (label[start] !== -1) continue;
    label[start] = start;
    const stack = [start];
    while (stack.length > 0) {
      const u = stack.pop();
      for (const v of adj[u]) {
        if (label[v] === -1) {
          label[v] = start;
          stack.push(v);
        }
      }
    }
  }
  return label;
}
