// deno-lint-ignore-file no-unused-vars
function citationIndex(citations) {
  const a = [...citations].sort((x, y) => y - x);
  let h = 0;
  while (h < a.length && a[h] >= h + 1) h++;
  return h;
}
