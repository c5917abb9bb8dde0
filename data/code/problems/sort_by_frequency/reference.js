// deno-lint-ignore-file no-unused-vars
function sortByFrequency(nums) {
  const counts = new Map();
  for (const v of nums) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...nums].sort((a, b) => counts.get(b) - counts.get(a) || a - b);
}
