export function large(n, rng) {
  const alphabet = Array.from("abcdefghijXYZ0123 中文字符测试😀😁🎉🚀ß\u0301");
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(alphabet[Math.floor(rng() * alphabet.length)]);
  }
  return [out.join("")];
}
