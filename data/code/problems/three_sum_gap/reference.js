// deno-lint-ignore-file no-unused-vars
function threeSumGap(nums, target) {
  const a = [...nums].sort((x, y) => x - y);
  let best = null;
  for (let i = 0; i < a.length; i++) {
    let lo = i + 1;
    let hi = a.length - 1;
    while (lo < hi) {
      const s = a[i] + a[lo] + a[hi];
      if (best === null || Math.abs(s - target) < best) {
        best = Math.abs(s - target);
      }
      if (s < target) lo++;
      else hi--;
    }
  }
  return best;
}
