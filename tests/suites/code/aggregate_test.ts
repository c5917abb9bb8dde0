import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  codeScores,
  complexityMatrix,
  DEFAULT_WEIGHTS,
  passAtKCurve,
  passAtKTable,
  weightingSensitivity,
} from "../../../lib/suites/code/aggregate.ts";

const close = (a: unknown, b: number, what = "") =>
  assert.ok(Math.abs(Number(a) - b) < 1e-12, `${what}: ${a} != ${b}`);

/** n samples of one problem with the given correct flags. */
function samples(
  model: string,
  problem: string,
  correct: boolean[],
  extra: Record<string, unknown> = {},
) {
  return correct.map((c, sample) => ({
    model,
    problem,
    sample,
    correct: c,
    ...extra,
  }));
}

Deno.test("passAtKTable() matches hand-computed pass@k for n=5, c=2", () => {
  const frame = pl.DataFrame(
    samples("m", "p", [false, true, false, true, false]),
  );
  const [row] = passAtKTable(frame, { ks: [1, 2, 3, 5] }).toRecords();
  close(row!["pass@1"], 0.4, "pass@1");
  close(row!["pass@2"], 0.7, "pass@2"); // 1 − C(3,2)/C(5,2) = 1 − 3/10
  close(row!["pass@3"], 0.9, "pass@3"); // 1 − C(3,3)/C(5,3) = 1 − 1/10
  close(row!["pass@5"], 1, "pass@5");
  assert.equal(row!.first_attempt_rate, 0);
  assert.equal(row!.problems, 1);
  assert.equal(row!.samples_min, 5);
});

Deno.test("passAtKTable() averages problems per model, null when n < k", () => {
  const frame = pl.DataFrame([
    ...samples("a", "p1", [true, true, true, true, true]),
    ...samples("a", "p2", [false, false, false, false, false]),
    ...samples("b", "p1", [true, false]),
  ]);
  const rows = passAtKTable(frame, { ks: [1, 2, 5] }).toRecords();
  assert.deepEqual(rows.map((r) => r.model), ["a", "b"]);
  close(rows[0]!["pass@1"], 0.5);
  close(rows[0]!["pass@5"], 0.5);
  close(rows[0]!.first_attempt_rate, 0.5);
  close(rows[1]!["pass@1"], 0.5);
  close(rows[1]!["pass@2"], 1);
  assert.equal(rows[1]!["pass@5"], null);
});

Deno.test("passAtKTable() keeps languages apart as separate problems", () => {
  const frame = pl.DataFrame([
    ...samples("a", "p", [true, false], { language: "python" }),
    ...samples("a", "p", [false, false], { language: "javascript" }),
  ]);
  const [all] = passAtKTable(frame, { ks: [2] }).toRecords();
  assert.equal(all!.problems, 2);
  close(all!["pass@2"], 0.5);
  const byLang = passAtKTable(frame, { ks: [1], by: ["model", "language"] })
    .toRecords();
  assert.deepEqual(byLang.map((r) => [r.language, r["pass@1"]]), [
    ["javascript", 0],
    ["python", 0.5],
  ]);
});

Deno.test("passAtKTable() rejects k = 0 and a frame without problem", () => {
  const frame = pl.DataFrame(samples("m", "p", [true]));
  assert.throws(() => passAtKTable(frame, { ks: [0] }), RangeError);
  assert.throws(
    () => passAtKTable(pl.DataFrame({ model: ["m"], correct: [true] })),
    /lacks problem/,
  );
});

Deno.test("passAtKCurve() rises from pass@1 to pass@n", () => {
  const frame = pl.DataFrame([
    ...samples("m", "p1", [false, true, false, true, false]),
    ...samples("m", "p2", [true, true, true, true, true]),
  ]);
  const curve = passAtKCurve(frame).toRecords();
  assert.deepEqual(curve.map((r) => r.k), [1, 2, 3, 4, 5]);
  close(curve[0]!.pass_at_k, 0.7); // (0.4 + 1) / 2
  close(curve[1]!.pass_at_k, 0.85); // (0.7 + 1) / 2
  close(curve[4]!.pass_at_k, 1);
});

/** Two bank models with every metric set by hand. */
function scoredFrame() {
  return pl.DataFrame({
    model: ["a", "a", "a", "a", "b", "b", "b", "b"],
    complexity: Array(8).fill("O(n)"),
    correct: [true, true, false, false, true, true, true, true],
    status: [
      "correct",
      "correct",
      "wrong",
      "parse_error",
      "correct",
      "correct",
      "correct",
      "correct",
    ],
    functional_pass_rate: [1, 1, 0.5, null, 1, 1, 1, 1],
    complexity_met: [true, false, null, null, false, false, false, false],
    complexity_optimal: [true, false, null, null, false, false, false, false],
    edge_pass_rate: [1, 1, 0.5, null, 1, 1, 1, 1],
    large_pass: [true, true, false, null, false, false, false, false],
    perf_ratio: [1, 0.5, null, null, null, null, null, null],
  });
}

Deno.test("codeScores() computes each component and the 40/25/20/15 score by hand", () => {
  const [a, b] = codeScores(scoredFrame()).toRecords();
  // a: functional 2/4, complexity met 1/4, edge (1+1+0.5+0)/4, large 2/4, perf (1+0.5)/4.
  close(a!.functional_pass_rate, 0.5);
  close(a!.complexity_met_rate, 0.25);
  close(a!.complexity_met_given_correct, 0.5);
  close(a!.optimal_rate, 0.25);
  close(a!.edge_pass_rate, 0.625);
  close(a!.large_pass_rate, 0.5);
  close(a!.robustness, 0.5625);
  close(a!.performance, 0.375);
  close(a!.score, 0.4 * 0.5 + 0.25 * 0.25 + 0.2 * 0.5625 + 0.15 * 0.375);
  // b: always correct, never meets complexity, never passes large input.
  close(b!.score, 0.4 * 1 + 0.25 * 0 + 0.2 * 0.5 + 0.15 * 0);
  assert.equal(b!.rows, 4);
});

Deno.test("codeScores() leaves bank-only components null for HumanEval rows", () => {
  const frame = pl.DataFrame({
    model: ["h", "h"],
    complexity: [null, null],
    correct: [true, false],
    functional_pass_rate: [1, 0],
  });
  const [row] = codeScores(frame, { by: ["model"], weights: DEFAULT_WEIGHTS })
    .toRecords();
  close(row!.functional_pass_rate, 0.5);
  assert.equal(row!.complexity_met_rate, null);
  assert.equal(row!.robustness, null);
  close(row!.score, 0.5); // renormalised over correctness alone
});

Deno.test("codeScores() rejects negative weights", () => {
  assert.throws(
    () =>
      codeScores(scoredFrame(), {
        by: ["model"],
        weights: {
          ...DEFAULT_WEIGHTS,
          complexity: -1,
        },
      }),
    /non-negative/,
  );
});

Deno.test("weightingSensitivity() ranks models per weighting and measures the change", () => {
  // a wins on correctness, b on complexity and performance.
  const s = weightingSensitivity(scoredFrame(), {
    weightings: {
      default: {
        correctness: 0.4,
        complexity: 0.25,
        robustness: 0.2,
        performance: 0.15,
      },
      correctness_only: {
        correctness: 1,
        complexity: 0,
        robustness: 0,
        performance: 0,
      },
      complexity_only: {
        correctness: 0,
        complexity: 1,
        robustness: 0,
        performance: 0,
      },
    },
  });
  assert.equal(s.reference, "default");
  const models = s.models.toRecords();
  // default: a = 0.43125, b = 0.5 → b first.
  assert.deepEqual(models.map((r) => [r.model, r.rank_default]), [["a", 2], [
    "b",
    1,
  ]]);
  assert.deepEqual(models.map((r) => r.rank_complexity_only), [1, 2]);
  assert.deepEqual(models.map((r) => r.max_rank_change), [1, 1]);
  close(models[0]!.mean_score, (0.43125 + 0.5 + 0.25) / 3);
  const w = s.weightings.toRecords();
  assert.deepEqual(w.map((r) => [r.weighting, r.kendall_tau, r.models_moved]), [
    ["default", 1, 0],
    ["correctness_only", 1, 0],
    ["complexity_only", -1, 2],
  ]);
  assert.equal(s.scores.height, 6);
});

Deno.test("weightingSensitivity() uses the built-in weightings by default", () => {
  const s = weightingSensitivity(scoredFrame());
  assert.ok(s.weightings.height >= 5);
  assert.ok(
    s.weightings.getColumn("weighting").toArray().includes("equal"),
  );
});

Deno.test("complexityMatrix() counts required × measured over functionally correct rows", () => {
  const frame = pl.DataFrame({
    correct: [true, true, true, true, false],
    functional_pass_rate: [1, 1, 1, 1, 0.2],
    complexity: ["O(n log n)", "O(n)", "O(n)", "O(n)", "O(n)"],
    complexity_measured: ["O(n^2)", "O(n^2)", "O(n)", "O(log n)", null],
  });
  const rows = complexityMatrix(frame).toRecords();
  assert.deepEqual(
    rows.map((r) => [r.required, r.measured, r.rows, r.met]),
    [
      ["O(n)", "O(log n)", 1, true],
      ["O(n)", "O(n)", 1, true],
      ["O(n)", "O(n^2)", 1, false],
      ["O(n log n)", "O(n^2)", 1, false],
    ],
  );
  close(rows[0]!.share, 1 / 3);
});
