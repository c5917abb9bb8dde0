// deno-lint-ignore-file no-unused-vars
function maxProfitUnitJobs(jobs) {
  const n = jobs.length; // hours after n are never needed
  const byProfit = [...jobs].sort((a, b) => b[1] - a[1]);
  // free[h]: the latest free hour <= h, found with path halving (0 means none)
  const free = Array.from({ length: n + 1 }, (_, h) => h);
  const find = (h) => {
    while (free[h] !== h) {
      free[h] = free[free[h]];
      h = free[h];
    }
    return h;
  };
  let total = 0;
  for (const [deadline, profit] of byProfit) {
    const h = find(Math.min(deadline, n));
    if (h > 0) {
      total += profit;
      free[h] = h - 1;
    }
  }
  return total;
}
