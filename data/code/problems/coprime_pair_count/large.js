export function large(n, rng) {
  const nums = [];
  for (let i = 0; i < n; i++) nums.push(1 + Math.floor(rng() * (2 * n + 10)));
  return [nums];
}
