/** Deep nesting of random kinds with letters between; the last bracket is of the wrong kind half the time. */
export function large(n, rng) {
  const open = "([{";
  const close = ")]}";
  const half = Math.floor(n / 2);
  const kinds = Array.from({ length: half }, () => Math.floor(rng() * 3));
  const out = [];
  for (const k of kinds) out.push(rng() < 0.1 ? "a" + open[k] : open[k]);
  for (let i = half - 1; i >= 0; i--) out.push(close[kinds[i]]);
  if (rng() < 0.5) out[out.length - 1] = close[(kinds[0] + 1) % 3];
  return [out.join("")];
}
