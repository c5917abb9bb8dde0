// deno-lint-ignore-file no-unused-vars
function rotatedMinIndex(nums) {
  if (nums.length === 0) return -1;
  let lo = 0;
  let hi = nums.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nums[mid] > nums[hi]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
