// deno-lint-ignore-file no-unused-vars
function runningMedian(nums) {
  // Binary heaps written out: plain JavaScript has no priority queue.
  const makeHeap = (less) => {
    const a = [];
    return {
      size: () => a.length,
      top: () => a[0],
      push(v) {
        a.push(v);
        let i = a.length - 1;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (!less(a[i], a[p])) break;
          [a[p], a[i]] = [a[i], a[p]];
          i = p;
        }
      },
      pop() {
        const top = a[0];
        const last = a.pop();
        if (a.length > 0) {
          a[0] = last;
          let i = 0;
          for (;;) {
            const l = 2 * i + 1;
            const r = l + 1;
            let m = i;
            if (l < a.length && less(a[l], a[m])) m = l;
            if (r < a.length && less(a[r], a[m])) m = r;
            if (m === i) break;
            [a[m], a[i]] = [a[i], a[m]];
            i = m;
          }
        }
        return top;
      },
    };
  };
  const low = makeHeap((x, y) => x > y);
  const high = makeHeap((x, y) => x < y);
  const out = [];
  for (const x of nums) {
    if (low.size() > 0 && x > low.top()) high.push(x);
    else low.push(x);
    if (low.size() > high.size() + 1) high.push(low.pop());
    else if (high.size() > low.size()) low.push(high.pop());
    if (low.size() > high.size()) out.push(low.top());
    else out.push((low.top() + high.top()) / 2);
  }
  return out;
}
