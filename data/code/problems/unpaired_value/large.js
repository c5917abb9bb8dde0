export function large(n, rng) {
  const half = Math.floor(n / 2);
  const nums = [];
  for (let i = 0; i < half; i++) {
    const v = Math.floor(rng() * 4294967296) - 2147483648;
    nums.push(v, v);
  }
  // the odd one out sits near the end, so a scan counting occurrences is long
  nums.push(half * 2 + 7);
  for (let i = 0; i < nums.length - 2; i++) {
    const j = i + Math.floor(rng() * (nums.length - 1 - i));
    [nums[i], nums[j]] = [nums[j], nums[i]];
  }
  return [nums];
}
