// deno-lint-ignore-file no-unused-vars
function countSubsetsWithSum(nums, target) {
  const ways = new Array(target + 1).fill(0);
  ways[0] = 1;
  for (const x of nums) {
    for (let s = target; s >= x; s--) ways[s] += ways[s - x];
  }
  return ways[target];
}
