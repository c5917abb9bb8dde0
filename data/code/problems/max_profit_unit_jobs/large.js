export function large(n, rng) {
  const jobs = [];
  for (let i = 0; i < n; i++) {
    jobs.push([
      1 + Math.floor(rng() * (n / 2)),
      Math.floor(rng() * 1000000000),
    ]);
  }
  return [jobs];
}
