/** A shuffled alphabet of n / 2 CJK characters written twice, with a few random changes: long windows. */
export function large(n, rng) {
  const m = Math.max(1, Math.floor(n / 2));
  const perm = Array.from(
    { length: m },
    (_, i) => String.fromCodePoint(0x4e00 + i),
  );
  for (let i = m - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const chars = [...perm, ...perm];
  for (let c = 0; c < 8; c++) {
    chars[Math.floor(rng() * chars.length)] = String.fromCodePoint(
      0x4e00 + Math.floor(rng() * m),
    );
  }
  return [chars.join("")];
}
