export function large(n, rng) {
  const reach = [];
  for (let i = 0; i < n; i++) reach.push(1 + Math.floor(rng() * 8));
  return [reach];
}
