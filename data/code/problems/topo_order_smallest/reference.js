// deno-lint-ignore-file no-unused-vars
function topoOrderSmallest(n, edges) {
  const out = Array.from({ length: n }, () => []);
  const indeg = new Array(n).fill(0);
  for (const [u, v] of edges) {
    out[u].push(v);
    indeg[v]++;
  }
  // binary min-heap of vertex numbers
  const heap = [];
  const push = (x) => {
    heap.push(x);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p] <= heap[i]) break;
      [heap[p], heap[i]] = [heap[i], heap[p]];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l] < heap[m]) m = l;
        if (r < heap.length && heap[r] < heap[m]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  };
  for (let v = 0; v < n; v++) if (indeg[v] === 0) push(v);
  const order = [];
  while (heap.length > 0) {
    const u = pop();
    order.push(u);
    for (const v of out[u]) {
      indeg[v]--;
      if (indeg[v] === 0) push(v);
    }
  }
  return order.length === n ? order : [];
}
