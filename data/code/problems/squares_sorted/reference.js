// deno-lint-ignore-file no-unused-vars
function squaresSorted(nums) {
  const n = nums.length;
  const out = new Array(n).fill(0);
  let lo = 0;
  let hi = n - 1;
  for (let pos = n - 1; pos >= 0; pos--) {
    const a = nums[lo] * nums[lo];
    const b = nums[hi] * nums[hi];
    if (a > b) {
      out[pos] = a;
      lo++;
    } else {
      out[pos] = b;
      hi--;
    }
  }
  return out;
}
