// deno-lint-ignore-file no-unused-vars
function sameLetters(a, b) {
  const counts = new Map();
  let lengthA = 0;
  for (const ch of a) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    lengthA++;
  }
  let lengthB = 0;
  for (const ch of b) {
    const c = counts.get(ch) ?? 0;
    if (c === 0) return false;
    counts.set(ch, c - 1);
    lengthB++;
  }
  return lengthA === lengthB;
}
