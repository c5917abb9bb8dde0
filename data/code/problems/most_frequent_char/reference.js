// deno-lint-ignore-file no-unused-vars
function mostFrequentChar(s) {
  const counts = new Map();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let best = "";
  let bestCount = 0;
  for (const [ch, c] of counts) {
    if (c > bestCount) {
      best = ch;
      bestCount = c;
    }
  }
  return [best, bestCount];
}
