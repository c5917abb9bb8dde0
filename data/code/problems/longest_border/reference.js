// deno-lint-ignore-file no-unused-vars
function longestBorder(s) {
  const c = Array.from(s);
  const n = c.length;
  if (n === 0) return 0;
  const pi = new Array(n).fill(0);
  let k = 0;
  for (let i = 1; i < n; i++) {
    while (k > 0 && c[i] !== c[k]) k = pi[k - 1];
    if (c[i] === c[k]) k++;
    pi[i] = k;
  }
  return pi[n - 1];
}
