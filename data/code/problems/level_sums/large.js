export function large(n, rng) {
  // build a deep random binary tree: each new node hangs under one of the newest nodes
  const left = new Array(n).fill(-1);
  const right = new Array(n).fill(-1);
  for (let v = 1; v < n; v++) {
    for (;;) {
      const p = Math.max(0, v - 1 - Math.floor(rng() * 3));
      if (left[p] === -1 && rng() < 0.5) {
        left[p] = v;
        break;
      }
      if (right[p] === -1) {
        right[p] = v;
        break;
      }
      if (left[p] === -1) {
        left[p] = v;
        break;
      }
    }
  }
  const vals = Array.from({ length: n }, () => Math.floor(rng() * 2001) - 1000);
  const out = [vals[0]];
  const queue = [0];
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h];
    for (const c of [left[u], right[u]]) {
      if (c === -1) out.push(null);
      else {
        out.push(vals[c]);
        queue.push(c);
      }
    }
  }
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return [out];
}
