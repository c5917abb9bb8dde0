// deno-lint-ignore-file no-unused-vars
function mostFrequentChar(s) {
  const chars = Array.from(s);
  let best = "";
  let bestCount = 0;
  for (let i = 0; i < chars.length; i++) {
    let c = 0;
    for (let j = 0; j < chars.length; j++) if (chars[j] === chars[i]) c++;
    if (c > bestCount) {
      best = chars[i];
      bestCount = c;
    }
  }
  return [best, bestCount];
}
