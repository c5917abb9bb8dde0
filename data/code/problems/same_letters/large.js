export function large(n, rng) {
  const alphabet = Array.from(
    "abcdefghijklmnopqrstuvwxyzABC 中文字符😀😁🐁🎉é",
  );
  const a = [];
  for (let i = 0; i < n; i++) {
    a.push(alphabet[Math.floor(rng() * alphabet.length)]);
  }
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  // half of the sizes get one changed character at the very end
  if (rng() < 0.5) b[b.length - 1] = b[b.length - 1] === "x" ? "y" : "x";
  return [a.join(""), b.join("")];
}
