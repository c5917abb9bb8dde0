import assert from "node:assert/strict";
import { extractNumber } from "../../lib/extract/mod.ts";
import { createRng } from "../../lib/math/rng.ts";

Deno.test("extractNumber() reads a bare integer as the full scan does", () => {
  const rng = createRng("bare-number");
  const samples = ["0", "7", "-42", "961113", "1" + "0".repeat(40)];
  for (let i = 0; i < 2000; i++) {
    const digits = rng.int(1, 25);
    let s = String(rng.int(1, 9));
    for (let k = 1; k < digits; k++) s += String(rng.int(0, 9));
    samples.push(rng.next() < 0.3 ? `-${s}` : s);
  }
  for (const s of samples) {
    // A trailing newline takes the scan; the result is the same.
    assert.deepEqual(extractNumber(s), extractNumber(`${s}\n`), s);
  }
});

Deno.test("extractNumber() leaves non-canonical integers to the scan", () => {
  assert.equal(extractNumber("007")?.exact, "7");
  assert.equal(extractNumber("-0")?.exact, "0");
  assert.deepEqual(extractNumber("+5")?.span, [0, 2]);
});
