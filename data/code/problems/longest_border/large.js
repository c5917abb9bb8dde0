export function large(n, rng) {
  const half = Math.floor(n / 2);
  const tail = [];
  for (let i = 0; i < 6; i++) tail.push(rng() < 0.5 ? "a" : "b");
  const block = "a".repeat(Math.max(0, half - 7)) + "b" + tail.join("");
  return [block + block];
}
