// deno-lint-ignore-file no-unused-vars
function firstRepeatedValue(nums) {
  const seen = new Set();
  for (const x of nums) {
    if (seen.has(x)) return x;
    seen.add(x);
  }
  return null;
}
