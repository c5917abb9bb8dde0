// deno-lint-ignore-file no-unused-vars
function maxXorPair(nums) {
  if (nums.length < 2) return 0;
  let best = 0;
  let mask = 0;
  for (let bit = 29; bit >= 0; bit--) {
    mask |= 1 << bit;
    const prefixes = new Set();
    for (const x of nums) prefixes.add(x & mask);
    const candidate = best | (1 << bit);
    for (const p of prefixes) {
      if (prefixes.has(p ^ candidate)) {
        best = candidate;
        break;
      }
    }
  }
  return best;
}
