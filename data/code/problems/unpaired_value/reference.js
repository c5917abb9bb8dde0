// deno-lint-ignore-file no-unused-vars
function unpairedValue(nums) {
  let x = 0;
  for (const v of nums) x ^= v; // values fit in 32-bit signed integers
  return x;
}
