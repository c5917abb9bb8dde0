// deno-lint-ignore-file no-unused-vars
function primesCountAndSum(n) {
  if (n < 2) return [0, 0];
  const isPrime = new Uint8Array(n + 1).fill(1);
  isPrime[0] = 0;
  isPrime[1] = 0;
  for (let p = 2; p * p <= n; p++) {
    if (isPrime[p]) { for (let m = p * p; m <= n; m += p) isPrime[m] = 0; }
  }
  let count = 0;
  let total = 0;
  for (let i = 2; i <= n; i++) {
    if (isPrime[i]) {
      count++;
      total += i;
    }
  }
  return [count, total];
}
