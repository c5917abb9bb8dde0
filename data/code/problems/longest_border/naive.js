// deno-lint-ignore-file no-unused-vars
function longestBorder(s) {
  const c = Array.from(s);
  const n = c.length;
  for (let len = n - 1; len > 0; len--) {
    let ok = true;
    for (let i = 0; i < len; i++) {
      if (c[i] !== c[n - len + i]) {
        ok = false;
        break;
      }
    }
    if (ok) return len;
  }
  return 0;
}
