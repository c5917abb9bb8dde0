// deno-lint-ignore-file no-unused-vars
function kthPairDistance(nums, k) {
  const a = [...nums].sort((x, y) => x - y);
  const n = a.length;
  const pairsWithin = (d) => {
    let count = 0;
    let left = 0;
    for (let right = 0; right < n; right++) {
      while (a[right] - a[left] > d) left++;
      count += right - left;
    }
    return count;
  };
  let lo = 0;
  let hi = a[n - 1] - a[0];
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (pairsWithin(mid) >= k) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
