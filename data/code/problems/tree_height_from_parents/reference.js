// deno-lint-ignore-file no-unused-vars
function treeHeightFromParents(parent) {
  const n = parent.length;
  if (n === 0) return 0;
  const children = Array.from({ length: n }, () => []);
  let root = -1;
  for (let i = 0; i < n; i++) {
    if (parent[i] === -1) root = i;
    else children[parent[i]].push(i);
  }
  let height = 0;
  let level = [root];
  while (level.length > 0) {
    height++;
    const next = [];
    for (const u of level) for (const c of children[u]) next.push(c);
    level = next;
  }
  return height;
}
