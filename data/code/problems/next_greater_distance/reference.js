// deno-lint-ignore-file no-unused-vars
function nextGreaterDistance(nums) {
  const out = nums.map(() => 0);
  const stack = [];
  nums.forEach((x, j) => {
    while (stack.length !== 0 && nums[stack.at(-1)] < x) {
      const i = stack.pop();
      out[i] = j - i;
    }
    stack.push(j);
  });
  return out;
}
