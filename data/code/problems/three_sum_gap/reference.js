// deno-lint-ignore-file no-unused-vars
function threeSumGap(nums, target) {
  const a = [...nums].sort((x, y) => x - y);
  const n = a.length;
  if (n < 3) return null;
  let best = Infinity;
  for (let i = 0; i < n - 2; i++) {
    let lo = i + 1;
    let hi = n - 1;
    while (lo < hi) {
      const s = a[i] + a[lo] + a[hi];
      const gap = Math.abs(s - target);
      if (gap < best) best = gap;
      if (s < target) lo++;
      else if (s > target) hi--;
      else return 0;
    }
  }
  return best;
}
