import assert from "node:assert/strict";
import { generateLinalg } from "../../../lib/suites/linalg/generate.ts";
import { eigenvalues, rank, toMatrix } from "../../../lib/math/mod.ts";
import { LINALG_TASKS, solveProblem } from "../../../lib/suites/linalg/mod.ts";

const maxAbs = (m: string[][]) =>
  Math.max(...m.flat().map((v) => Math.abs(Number(v))));

Deno.test("generateLinalg() is deterministic per seed and differs across seeds", () => {
  const a = generateLinalg({ seed: 3, sizes: [4], count: 2 });
  assert.deepEqual(generateLinalg({ seed: 3, sizes: [4], count: 2 }), a);
  assert.notDeepEqual(generateLinalg({ seed: 4, sizes: [4], count: 2 }), a);
  assert.equal(a.length, LINALG_TASKS.length * 2);
  assert.equal(new Set(a.map((p) => p.id)).size, a.length);
});

Deno.test("generateLinalg() uses the paper's entry ranges per task and size", () => {
  const ps = generateLinalg({ seed: 1, sizes: [3, 4, 5, 6], count: 5 });
  const range: Record<string, (n: number) => number> = {
    trace: () => 9,
    transpose: () => 9,
    matrix_vector: () => 5,
    multiplication: (n) => (n >= 5 ? 3 : 4),
    matrix_power: (n) => (n >= 5 ? 2 : 3),
    determinant: () => 5,
  };
  for (const p of ps) {
    const limit = range[p.task];
    if (!limit) continue;
    assert.ok(maxAbs(p.A) <= limit(p.n), `${p.id} A`);
    if (p.B) assert.ok(maxAbs(p.B) <= limit(p.n), `${p.id} B`);
    if (p.x) assert.ok(maxAbs(p.x.map((v) => [v])) <= limit(p.n), `${p.id} x`);
  }
  // The extremes are reached, so the ranges are not narrower than asked.
  const det = ps.filter((p) => p.task === "determinant");
  assert.equal(Math.max(...det.map((p) => maxAbs(p.A))), 5);
});

Deno.test("generateLinalg() builds rank and nullity problems of every target rank", () => {
  const ps = generateLinalg({
    seed: 2,
    tasks: ["rank", "nullity"],
    sizes: [5],
    count: 20,
  });
  const ranks = new Set(ps.map((p) => rank(toMatrix(p.A))));
  assert.ok(ranks.size >= 4, `ranks seen: ${[...ranks]}`);
  for (const p of ps) assert.equal(p.A.length, 5);
});

Deno.test("generateLinalg() makes eigenvalue problems with real eigenvalues, integer ones by construction", () => {
  const sym = generateLinalg({
    seed: 5,
    tasks: ["eigenvalue"],
    sizes: [3, 6],
    count: 3,
    eigen: "symmetric",
  });
  for (const p of sym) {
    assert.ok(
      p.A.every((r, i) => r.every((v, j) => v === p.A[j]![i])),
      `${p.id} symmetric`,
    );
    assert.equal(eigenvalues(toMatrix(p.A)).complexCount, 0);
  }
  const int = generateLinalg({
    seed: 5,
    tasks: ["eigenvalue"],
    sizes: [4, 6],
    count: 3,
    eigen: "integer",
  });
  for (const p of int) {
    const key = solveProblem(p);
    assert.equal(key.kind, "multiset");
    assert.ok(
      (key.value as string[]).every((v) => /^-?\d+$/.test(v)),
      `${p.id}: ${key.value}`,
    );
    assert.ok(p.A.flat().every((v) => /^-?\d+$/.test(v)));
  }
});

Deno.test("generateLinalg() goes past the paper's sizes and rejects n < 2", () => {
  const [p] = generateLinalg({
    seed: 0,
    tasks: ["determinant"],
    sizes: [9],
    count: 1,
  });
  assert.equal(p!.A.length, 9);
  assert.equal(solveProblem(p!).kind, "rational");
  assert.throws(() => generateLinalg({ seed: 0, sizes: [1] }), RangeError);
  assert.throws(() => generateLinalg({ seed: 0, count: 0 }), RangeError);
});
