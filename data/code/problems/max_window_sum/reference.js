// deno-lint-ignore-file no-unused-vars
function maxWindowSum(nums, k) {
  if (nums.length < k) return null;
  let window = 0;
  for (let i = 0; i < k; i++) window += nums[i];
  let best = window;
  for (let i = k; i < nums.length; i++) {
    window += nums[i] - nums[i - k];
    if (window > best) best = window;
  }
  return best;
}
