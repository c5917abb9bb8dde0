// deno-lint-ignore-file no-unused-vars
function lcmRangeMod(n) {
  const MOD = 1000000007n;
  if (n < 2) return 1;
  const composite = new Uint8Array(n + 1);
  let result = 1n;
  for (let p = 2; p <= n; p++) {
    if (composite[p]) continue;
    for (let m = p * p; m <= n; m += p) composite[m] = 1;
    let power = p;
    while (power * p <= n) power *= p;
    // the product can exceed 2^53, so it is done in BigInt
    result = (result * BigInt(power)) % MOD;
  }
  return Number(result);
}
