export function large(n, rng) {
  const nums = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const x = 1 + Math.floor(rng() * 10);
    nums.push(x);
    total += x;
  }
  return [nums, Math.floor(total / 2)];
}
