// deno-lint-ignore-file no-unused-vars
function countSubsetsWithSum(nums, target) {
  function go(i, remaining) {
    if (i === nums.length) return remaining === 0 ? 1 : 0;
    return go(i + 1, remaining) + go(i + 1, remaining - nums[i]);
  }
  return go(0, target);
}
