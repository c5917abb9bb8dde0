// deno-lint-ignore-file no-unused-vars
function modPow(base, exp, mod) {
  const m = BigInt(mod);
  let result = 1n % m;
  let b = ((BigInt(base) % m) + m) % m;
  let e = BigInt(exp);
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return Number(result);
}
