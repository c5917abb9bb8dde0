import assert from "node:assert/strict";
import { loadLinalgBench } from "../../../lib/suites/linalg/linalgbench.ts";
import { verifyKey } from "../../../lib/suites/linalg/mod.ts";

Deno.test("verifyKey() reproduces every published LinAlg-Bench 4×4 answer", async () => {
  const rows = await loadLinalgBench("data/linalgbench/linalg_bench_4x4.csv");
  const report = verifyKey(rows);
  assert.equal(report.total, 220);
  assert.deepEqual(report.disagreements, []);
});

Deno.test("verifyKey() reports a tampered determinant, matrix entry and eigenvalue", async () => {
  const rows = (await loadLinalgBench("data/linalgbench/linalg_bench_3x3.csv"))
    .slice();
  const det = rows.findIndex((r) => r.problem.task === "determinant");
  const mat = rows.findIndex((r) => r.problem.task === "transpose");
  const eig = rows.findIndex((r) => r.problem.task === "eigenvalue");
  const tampered = rows.map((r, i) => {
    if (i === det && r.key.kind === "rational") {
      return {
        ...r,
        key: { ...r.key, value: String(Number(r.key.value) + 1) },
      };
    }
    if (i === mat && r.key.kind === "matrix") {
      const value = r.key.value.map((row) => [...row]);
      value[0]![0] = String(Number(value[0]![0]) - 1);
      return { ...r, key: { ...r.key, value } };
    }
    if (i === eig && r.key.kind === "multiset") {
      const value = [...r.key.value];
      value[0] = (Number(value[0]) + 0.0001).toFixed(4);
      return { ...r, key: { ...r.key, value } };
    }
    return r;
  });
  const report = verifyKey(tampered);
  assert.deepEqual(
    report.disagreements.map((d) => d.id).sort(),
    [rows[det]!, rows[mat]!, rows[eig]!].map((r) => r.problem.id).sort(),
  );
  assert.equal(report.agreements, 217);
});
