// deno-lint-ignore-file no-unused-vars
function lisLength(nums) {
  const n = nums.length;
  const best = new Array(n).fill(1);
  let answer = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (nums[j] < nums[i] && best[j] + 1 > best[i]) best[i] = best[j] + 1;
    }
    if (best[i] > answer) answer = best[i];
  }
  return answer;
}
