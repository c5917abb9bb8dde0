// deno-lint-ignore-file no-unused-vars
function levelSums(tree) {
  if (tree.length === 0 || tree[0] === null) return [];
  const sums = [tree[0]];
  const depth = [0];
  let parentPos = 0;
  for (let i = 1; i < tree.length; i += 2) {
    const d = depth[parentPos] + 1;
    for (const j of [i, i + 1]) {
      if (j < tree.length && tree[j] !== null) {
        if (d === sums.length) sums.push(0);
        sums[d] += tree[j];
        depth.push(d);
      }
    }
    parentPos++;
  }
  return sums;
}
