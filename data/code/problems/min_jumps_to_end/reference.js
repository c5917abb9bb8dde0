// deno-lint-ignore-file no-unused-vars
function minJumpsToEnd(reach) {
  const n = reach.length;
  let jumps = 0;
  let currentEnd = 0;
  let farthest = 0;
  for (let i = 0; i < n - 1; i++) {
    farthest = Math.max(farthest, i + reach[i]);
    if (i === currentEnd) {
      if (farthest <= i) return -1;
      jumps++;
      currentEnd = farthest;
    }
  }
  return jumps;
}
