import assert from "node:assert/strict";
import { det } from "mathjs";
import {
  determinant,
  formatMatrix,
  matMul,
  matPow,
  matVec,
  nullity,
  rank,
  toMatrix,
  trace,
  transpose,
} from "../../lib/math/mod.ts";
import { createRng } from "../../lib/math/rng.ts";

function randomInts(
  seed: string,
  n: number,
  lo: number,
  hi: number,
): number[][] {
  const rng = createRng(seed);
  return Array.from(
    { length: n },
    () => Array.from({ length: n }, () => rng.int(lo, hi)),
  );
}

/** Leibniz formula over permutations, in BigInt: an independent determinant. */
function leibniz(m: number[][]): bigint {
  const n = m.length;
  let total = 0n;
  const perm = (prefix: number[], rest: number[]) => {
    if (rest.length === 0) {
      let inversions = 0;
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          if (prefix[i]! > prefix[j]!) inversions++;
        }
      }
      let p = 1n;
      for (let i = 0; i < n; i++) p *= BigInt(m[i]![prefix[i]!]!);
      total += inversions % 2 ? -p : p;
      return;
    }
    rest.forEach((v, k) =>
      perm([...prefix, v], rest.filter((_, j) => j !== k))
    );
  };
  perm([], [...Array(n).keys()]);
  return total;
}

Deno.test("determinant() equals the Leibniz expansion on seeded 2×2..6×6 integer matrices", () => {
  for (let n = 2; n <= 6; n++) {
    for (let k = 0; k < 5; k++) {
      const m = randomInts(`det/${n}/${k}`, n, -9, 9);
      assert.equal(
        determinant(toMatrix(m)).toString(),
        leibniz(m).toString(),
        `n=${n} k=${k}`,
      );
    }
  }
});

Deno.test("determinant() stays exact where floating point would round (entries ~1e9)", () => {
  const m = [[1_000_000_007, 999_999_937], [999_999_929, 1_000_000_009]];
  const exact = 1_000_000_007n * 1_000_000_009n - 999_999_937n * 999_999_929n;
  assert.equal(determinant(toMatrix(m)).toString(), exact.toString());
  // Floating point loses the last digits of this determinant.
  assert.notEqual(BigInt(Math.round(det(m))), exact);
});

Deno.test("determinant() handles rationals and singular matrices", () => {
  assert.equal(
    formatMatrix([[
      determinant(toMatrix([["1/2", "1/3"], ["1/4", "1/5"]])),
    ]])[0]![0],
    "1/60",
  );
  assert.equal(
    determinant(toMatrix([[1, 2, 3], [4, 5, 6], [7, 8, 9]])).toString(),
    "0",
  );
});

Deno.test("trace(), transpose() and matVec() follow their definitions", () => {
  const m = randomInts("basic", 5, -9, 9);
  const a = toMatrix(m);
  assert.equal(
    trace(a).toString(),
    String(m.reduce((s, r, i) => s + r[i]!, 0)),
  );
  const t = formatMatrix(transpose(a));
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) assert.equal(t[i]![j], String(m[j]![i]));
  }
  const x = [1, -2, 3, 0, 4];
  const [xv] = toMatrix([x]);
  const expected = m.map((r) =>
    String(r.reduce((s, v, j) => s + v * x[j]!, 0))
  );
  assert.deepEqual(matVec(a, xv!).map(String), expected);
});

Deno.test("matMul() matches a hand-rolled triple loop; matPow() matches repeated products", () => {
  const a = randomInts("mulA", 4, -4, 4), b = randomInts("mulB", 4, -4, 4);
  const loop = a.map((r) =>
    b[0]!.map((_, j) => String(r.reduce((s, v, k) => s + v * b[k]![j]!, 0)))
  );
  assert.deepEqual(formatMatrix(matMul(toMatrix(a), toMatrix(b))), loop);
  const am = toMatrix(a);
  assert.deepEqual(
    formatMatrix(matPow(am, 3)),
    formatMatrix(matMul(matMul(am, am), am)),
  );
  assert.deepEqual(formatMatrix(matPow(am, 0)), [
    ["1", "0", "0", "0"],
    ["0", "1", "0", "0"],
    ["0", "0", "1", "0"],
    ["0", "0", "0", "1"],
  ]);
  assert.deepEqual(formatMatrix(matPow(am, 1)), formatMatrix(am));
});

Deno.test("matMul(), matPow() and trace() reject wrong shapes with RangeError", () => {
  assert.throws(
    () => matMul(toMatrix([[1, 2]]), toMatrix([[1, 2]])),
    RangeError,
  );
  assert.throws(() => matPow(toMatrix([[1, 2]]), 2), RangeError);
  assert.throws(() => matPow(toMatrix([[1]]), -1), RangeError);
  assert.throws(() => trace(toMatrix([[1, 2]])), /Cannot take the trace/);
  assert.throws(() => toMatrix([[1, 2], [3]]), TypeError);
  assert.throws(() => toMatrix([[0.5]]), RangeError);
});

Deno.test("rank() and nullity() add up to the column count and find dependent rows", () => {
  const base = [[1, 2, 3, 4], [0, 1, 1, 0]];
  const dependent = [...base, [1, 3, 4, 4], [2, 5, 7, 8]];
  assert.equal(rank(toMatrix(dependent)), 2);
  assert.equal(nullity(toMatrix(dependent)), 2);
  assert.equal(rank(toMatrix([[0, 0], [0, 0]])), 0);
  for (let k = 0; k < 10; k++) {
    const m = toMatrix(randomInts(`rank/${k}`, 5, -3, 3));
    assert.equal(rank(m) + nullity(m), 5);
    assert.equal(rank(m) === 5, determinant(m).n !== 0n);
  }
  assert.equal(rank(toMatrix([[1, 2, 3]])), 1);
  assert.equal(nullity(toMatrix([[1, 2, 3]])), 2);
});
