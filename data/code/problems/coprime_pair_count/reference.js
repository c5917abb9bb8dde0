// deno-lint-ignore-file no-unused-vars
function coprimePairCount(nums) {
  if (nums.length === 0) return 0;
  let top = 0;
  for (const x of nums) if (x > top) top = x;
  const freq = new Array(top + 1).fill(0);
  for (const x of nums) freq[x]++;
  const mu = new Array(top + 1).fill(1);
  const composite = new Uint8Array(top + 1);
  for (let p = 2; p <= top; p++) {
    if (composite[p]) continue;
    for (let m = p; m <= top; m += p) {
      composite[m] = 1;
      mu[m] = -mu[m];
    }
    for (let m = p * p; m <= top; m += p * p) mu[m] = 0;
  }
  let total = 0;
  for (let d = 1; d <= top; d++) {
    if (mu[d] === 0) continue;
    let c = 0;
    for (let m = d; m <= top; m += d) c += freq[m];
    total += mu[d] * ((c * (c - 1)) / 2);
  }
  return total;
}
