// deno-lint-ignore-file no-unused-vars
function totalHammingDistance(nums) {
  const n = nums.length;
  let total = 0;
  for (let bit = 0; bit < 31; bit++) {
    let ones = 0;
    for (const x of nums) ones += (x >> bit) & 1;
    total += ones * (n - ones);
  }
  return total;
}
