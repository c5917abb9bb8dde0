import assert from "node:assert/strict";
import { llmmathQuestions } from "../../../lib/suites/arithmetic/mod.ts";
import { llmmathReport } from "../../../lib/suites/arithmetic/mod.ts";

Deno.test("llmmathReport() gives per-item pass rates per model, in item order", () => {
  const qs = llmmathQuestions();
  const rows = [];
  for (const model of ["m2", "m1"]) {
    for (const [i, q] of qs.entries()) {
      for (let s = 0; s < 5; s++) {
        // Item i passes (7 - i) of 5 times, capped.
        rows.push({
          model,
          questionId: q.id,
          correct: s < Math.min(5, 7 - i - 2),
        });
      }
    }
  }
  rows.push({
    model: "m1",
    questionId: "arithmetic/add/d2/s0/0/en",
    correct: true,
  });
  const report = llmmathReport(rows);
  assert.equal(report.length, 14);
  assert.equal(report[0]?.model, "m1");
  assert.deepEqual(report.slice(0, 7).map((r) => r.rate), [
    1,
    0.8,
    0.6,
    0.4,
    0.2,
    0,
    0,
  ]);
  assert.deepEqual(report.slice(0, 7).map((r) => r.runs), [
    5,
    5,
    5,
    5,
    5,
    5,
    5,
  ]);
  assert.equal(report[6]?.label, "987654321×123456789");
  assert.equal(report[6]?.digits, 9);
});
