// deno-lint-ignore-file no-unused-vars
function maxProfitUnitJobs(jobs) {
  const sorted = [...jobs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // binary min-heap of the profits kept so far
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
  const popMin = () => {
    const last = heap.pop();
    if (heap.length === 0) return;
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
  };
  for (const [deadline, profit] of sorted) {
    push(profit);
    if (heap.length > deadline) popMin();
  }
  let total = 0;
  for (const p of heap) total += p;
  return total;
}
