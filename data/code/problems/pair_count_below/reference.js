// deno-lint-ignore-file no-unused-vars
function pairCountBelow(nums, limit) {
  const a = [...nums].sort((x, y) => x - y);
  let lo = 0;
  let hi = a.length - 1;
  let count = 0;
  while (lo < hi) {
    if (a[lo] + a[hi] >= limit) {
      hi--;
    } else {
      count += hi - lo;
      lo++;
    }
  }
  return count;
}
