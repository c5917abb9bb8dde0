export function large(n, rng) {
  const nums = [];
  for (let i = 0; i < n; i++) nums.push(Math.floor(rng() * 1073741824));
  return [nums];
}
