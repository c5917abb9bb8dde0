// deno-lint-ignore-file no-unused-vars
function bfsDistances(n, edges, source) {
  const dist = new Array(n).fill(-1);
  dist[source] = 0;
  const queue = [source];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head];
    for (const [a, b] of edges) {
      let v;
      if (a === u) v = b;
      else if (b === u) v = a;
      else continue;
      if (dist[v] === -1) {
        dist[v] = dist[u] + 1;
        queue.push(v);
      }
    }
  }
  return dist;
}
