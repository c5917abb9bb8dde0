// deno-lint-ignore-file no-unused-vars
function modPow(base, exp, mod) {
  const m = BigInt(mod);
  const b = ((BigInt(base) % m) + m) % m;
  let result = 1n % m;
  for (let i = 0; i < exp; i++) result = (result * b) % m;
  return Number(result);
}
