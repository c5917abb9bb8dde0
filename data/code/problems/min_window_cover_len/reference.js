// deno-lint-ignore-file no-unused-vars
function minWindowCoverLen(s, t) {
  const tc = Array.from(t);
  if (tc.length === 0) return 0;
  const sc = Array.from(s);
  const need = new Map();
  for (const ch of tc) need.set(ch, (need.get(ch) ?? 0) + 1);
  let missing = tc.length;
  let left = 0;
  let best = 0;
  for (let right = 0; right < sc.length; right++) {
    const ch = sc[right];
    if (need.has(ch)) {
      if (need.get(ch) > 0) missing--;
      need.set(ch, need.get(ch) - 1);
    }
    while (missing === 0) {
      const size = right - left + 1;
      if (best === 0 || size < best) best = size;
      const out = sc[left];
      if (need.has(out)) {
        need.set(out, need.get(out) + 1);
        if (need.get(out) > 0) missing++;
      }
      left++;
    }
  }
  return best;
}
