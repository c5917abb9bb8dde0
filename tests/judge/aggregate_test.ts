import assert from "node:assert/strict";
import {
  aggregateSamples,
  majorityVote,
  passAtK,
  type SampleOutcome,
} from "../../lib/judge/mod.ts";

/** Reference pass@k with exact BigInt binomials. */
function exactPassAtK(n: number, c: number, k: number): number {
  const choose = (a: number, b: number): bigint => {
    if (b < 0 || b > a) return 0n;
    let r = 1n;
    for (let i = 0; i < b; i++) r = (r * BigInt(a - i)) / BigInt(i + 1);
    return r;
  };
  const num = choose(n - c, k), den = choose(n, k);
  return 1 - Number((num * 10n ** 18n) / den) / 1e18;
}

Deno.test("passAtK() agrees with the exact binomial formula", () => {
  for (
    const [n, c, k] of [[10, 3, 1], [10, 3, 5], [200, 7, 10], [100, 1, 100], [
      50,
      0,
      5,
    ]]
  ) {
    assert.ok(
      Math.abs(passAtK({ n: n!, c: c!, k: k! }) - exactPassAtK(n!, c!, k!)) <
        1e-12,
      `n=${n} c=${c} k=${k}`,
    );
  }
});

Deno.test("passAtK() stays finite and stable for large n", () => {
  const v = passAtK({ n: 10_000, c: 5, k: 100 });
  assert.ok(Number.isFinite(v) && v > 0 && v < 1);
  assert.ok(Math.abs(v - exactPassAtK(10_000, 5, 100)) < 1e-9);
});

Deno.test("passAtK() rejects impossible counts with RangeError", () => {
  assert.throws(() => passAtK({ n: 3, c: 4, k: 1 }), RangeError);
  assert.throws(() => passAtK({ n: 3, c: 1, k: 4 }), RangeError);
  assert.throws(() => passAtK({ n: 3, c: 1, k: 0 }), RangeError);
  assert.throws(() => passAtK({ n: 3, c: 1.5, k: 1 }), RangeError);
});

Deno.test("majorityVote() ignores nulls and breaks ties by first appearance", () => {
  assert.deepEqual(majorityVote(["5", "6", "6", "5"]), {
    value: "5",
    count: 2,
  });
  assert.deepEqual(majorityVote([null, null]), { value: null, count: 0 });
});

Deno.test("aggregateSamples() computes maj@k, pass@k and agreement per question", () => {
  const rows: SampleOutcome[] = [
    { questionId: "a", sample: 2, correct: false, value: "9" },
    { questionId: "a", sample: 0, correct: true, value: "8" },
    { questionId: "a", sample: 1, correct: false, value: "9" },
    { questionId: "a", sample: 3, correct: false, value: null },
    { questionId: "b", sample: 0, correct: true, value: "1" },
  ];
  const [a, b] = aggregateSamples(rows);
  assert.equal(a?.questionId, "a");
  assert.equal(a?.n, 4);
  assert.equal(a?.c, 1);
  assert.equal(a?.majority, "9");
  assert.equal(a?.majCorrect, false);
  assert.equal(a?.agreement, 0.5);
  assert.equal(a?.passAtK, 1); // k = n = 4 with one correct
  assert.equal(b?.majCorrect, true);
  const [a1] = aggregateSamples(rows, 1);
  assert.equal(a1?.majority, "8", "maj@1 uses sample 0 only");
  assert.equal(a1?.majCorrect, true);
  assert.equal(a1?.passAtK, 0.25);
  const [a9] = aggregateSamples(rows, 9);
  assert.equal(a9?.passAtK, null);
});
