// deno-lint-ignore-file no-unused-vars
function windowMaximums(nums, k) {
  const out = [];
  const window = [];
  let head = 0;
  for (let i = 0; i < nums.length; i++) {
    while (window.length > head && nums[window[window.length - 1]] <= nums[i]) {
      window.pop();
    }
    window.push(i);
    if (window[head] <= i - k) head++;
    if (i >= k - 1) out.push(nums[window[head]]);
  }
  return out;
}
