// deno-lint-ignore-file no-unused-vars
function nextGreaterDistance(nums) {
  const out = new Array(nums.length).fill(0);
  const stack = [];
  for (let j = 0; j < nums.length; j++) {
    while (stack.length > 0 && nums[stack[stack.length - 1]] < nums[j]) {
      const i = stack.pop();
      out[i] = j - i;
    }
    stack.push(j);
  }
  return out;
}
