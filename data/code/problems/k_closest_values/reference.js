// deno-lint-ignore-file no-unused-vars
function kClosestValues(nums, x, k) {
  // A bounded max-heap of the k best so far: plain JavaScript has no heap.
  const worse = (a, b) => {
    const da = Math.abs(a - x);
    const db = Math.abs(b - x);
    return da > db || (da === db && a > b);
  };
  const heap = [];
  const siftDown = (i) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[m], heap[i]] = [heap[i], heap[m]];
      i = m;
    }
  };
  if (k <= 0) return [];
  for (const v of nums) {
    if (heap.length < k) {
      heap.push(v);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i], heap[p])) break;
        [heap[p], heap[i]] = [heap[i], heap[p]];
        i = p;
      }
    } else if (worse(heap[0], v)) {
      heap[0] = v;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
