// deno-lint-ignore-file no-unused-vars
function longestConsecutiveRun(nums) {
  const values = new Set(nums);
  let best = 0;
  for (const x of values) {
    if (!values.has(x - 1)) {
      let length = 1;
      while (values.has(x + length)) length++;
      if (length > best) best = length;
    }
  }
  return best;
}
