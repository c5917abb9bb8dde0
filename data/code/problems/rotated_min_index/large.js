/** Distinct increasing values rotated by a random amount. */
export function large(n, rng) {
  const a = [];
  let v = -Math.floor(rng() * 1000);
  for (let i = 0; i < n; i++) {
    v += 1 + Math.floor(rng() * 5);
    a.push(v);
  }
  const r = Math.floor(rng() * n);
  return [[...a.slice(r), ...a.slice(0, r)]];
}
