// deno-lint-ignore-file no-unused-vars
function longestUniqueSubstring(s) {
  const chars = Array.from(s);
  const last = new Map();
  let left = 0;
  let best = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const seen = last.get(ch);
    if (seen !== undefined && seen >= left) left = seen + 1;
    last.set(ch, i);
    if (i - left + 1 > best) best = i - left + 1;
  }
  return best;
}
