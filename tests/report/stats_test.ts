import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  kendallTauB,
  mcnemarExact,
  pairedBootstrap,
  ranks,
  wilsonExprs,
  wilsonInterval,
} from "../../lib/report/mod.ts";

const close = (a: number, b: number, tol = 1e-4) =>
  assert.ok(Math.abs(a - b) < tol, `${a} is not within ${tol} of ${b}`);

Deno.test("wilsonInterval() matches published values", () => {
  // Newcombe (1998), Table I: 0/10 → 0–0.2775; 5/10 → 0.2366–0.7634; 81/263 → 0.2553–0.3662.
  const a = wilsonInterval(0, 10);
  close(a.lo, 0);
  close(a.hi, 0.2775);
  const b = wilsonInterval(5, 10);
  close(b.lo, 0.2366);
  close(b.hi, 0.7634);
  const c = wilsonInterval(81, 263);
  close(c.lo, 0.2553);
  close(c.hi, 0.3662);
});

Deno.test("wilsonInterval() keeps width at 0% and 100% where the normal approximation has none", () => {
  for (const n of [1, 5, 20, 100]) {
    const zero = wilsonInterval(0, n);
    const all = wilsonInterval(n, n);
    const normalHalfWidth = 1.96 * Math.sqrt(0 * 1 / n);
    assert.equal(normalHalfWidth, 0);
    assert.ok(zero.hi > 0 && zero.lo === 0);
    assert.ok(all.lo < 1 && all.hi === 1);
    close(zero.hi, 1 - all.lo, 1e-12);
  }
});

Deno.test("wilsonInterval() rejects k > n and handles n = 0", () => {
  assert.throws(() => wilsonInterval(3, 2), RangeError);
  assert.ok(Number.isNaN(wilsonInterval(0, 0).p));
});

Deno.test("wilsonExprs() computes the same bounds as wilsonInterval() for every k ≤ n ≤ 40", () => {
  const ks: number[] = [], ns: number[] = [];
  for (let n = 1; n <= 40; n++) {
    for (let k = 0; k <= n; k++) ks.push(k), ns.push(n);
  }
  const [lo, hi] = wilsonExprs("k", "n");
  const df = pl.DataFrame({ k: ks, n: ns }).select(
    lo.alias("lo"),
    hi.alias("hi"),
  );
  const los = df.getColumn("lo").toArray() as number[];
  const his = df.getColumn("hi").toArray() as number[];
  ks.forEach((k, i) => {
    const want = wilsonInterval(k, ns[i]!);
    close(los[i]!, want.lo, 1e-12);
    close(his[i]!, want.hi, 1e-12);
  });
});

/** Independent float computation of the exact McNemar p-value. */
function mcnemarFloat(b: number, c: number): number {
  const n = b + c;
  let tail = 0;
  for (let i = 0; i <= Math.min(b, c); i++) {
    let logC = 0;
    for (let j = 0; j < i; j++) logC += Math.log(n - j) - Math.log(j + 1);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

Deno.test("mcnemarExact() agrees with the binomial tail for small and moderate counts", () => {
  for (
    const [b, c] of [[0, 1], [1, 9], [4, 11], [20, 35], [50, 50], [
      7,
      0,
    ]] as const
  ) {
    close(mcnemarExact(b, c), mcnemarFloat(b, c), 1e-9);
  }
  assert.equal(mcnemarExact(0, 0), 1);
  assert.equal(mcnemarExact(9, 4), mcnemarExact(4, 9));
});

Deno.test("mcnemarExact() stays finite and tiny for thousands of discordant pairs", () => {
  const p = mcnemarExact(1500, 1000);
  assert.ok(p > 0 && p < 1e-20, `p = ${p}`);
  assert.throws(() => mcnemarExact(-1, 2), RangeError);
});

Deno.test("pairedBootstrap() is reproducible for a seed and varies across seeds", () => {
  const a = Array.from({ length: 60 }, (_, i) => (i % 3 ? 1 : 0));
  const b = Array.from({ length: 60 }, (_, i) => (i % 2 ? 1 : 0));
  const r1 = pairedBootstrap(a, b, { seed: 42, resamples: 500 });
  const r2 = pairedBootstrap(a, b, { seed: 42, resamples: 500 });
  const r3 = pairedBootstrap(a, b, { seed: 43, resamples: 500 });
  assert.deepEqual(r1, r2);
  assert.notDeepEqual([r1.lo, r1.hi], [r3.lo, r3.hi]);
  assert.ok(r1.lo <= r1.diff && r1.diff <= r1.hi);
  close(r1.diff, 40 / 60 - 30 / 60, 1e-12);
  assert.throws(() => pairedBootstrap([1], [1, 0]), RangeError);
});

Deno.test("pairedBootstrap() gives a zero-width interval when the systems agree everywhere", () => {
  const a = [1, 0, 1, 1, 0];
  const r = pairedBootstrap(a, a, { seed: 1 });
  assert.deepEqual([r.diff, r.lo, r.hi], [0, 0, 0]);
});

Deno.test("ranks() and kendallTauB() give hand-checked numbers", () => {
  assert.deepEqual(ranks([0.2, 0.9, 0.5]), [3, 1, 2]);
  assert.deepEqual(ranks([0.5, 0.5, 0.1]), [1, 1, 3]);
  // 4 items, one swapped adjacent pair: (5 − 1) / 6.
  close(kendallTauB([1, 2, 3, 4], [1, 2, 4, 3]), 4 / 6, 1e-12);
  // Ties on one side: tau-b = (C − D) / sqrt((n0 − n1)(n0 − n2)) = 2 / sqrt(3·2).
  close(kendallTauB([1, 2, 3], [1, 1, 3]), 2 / Math.sqrt(6), 1e-12);
  assert.throws(() => kendallTauB([1], [1, 2]), RangeError);
});
