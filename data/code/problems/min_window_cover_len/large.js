/** Letters a..x with three 'y' and three 'z' scattered; t needs one 'y' and two 'z': long windows. */
export function large(n, rng) {
  const letters = "abcdefghijklmnopqrstuvwx";
  const chars = Array.from(
    { length: n },
    () => letters[Math.floor(rng() * letters.length)],
  );
  for (const rare of ["y", "y", "y", "z", "z", "z"]) {
    chars[Math.floor(rng() * n)] = rare;
  }
  return [chars.join(""), "zyzab"];
}
