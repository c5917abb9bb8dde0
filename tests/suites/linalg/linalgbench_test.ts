import assert from "node:assert/strict";
import {
  loadLinalgBench,
  parseLinalgBenchCsv,
} from "../../../lib/suites/linalg/linalgbench.ts";

const HEADER = "Problem_ID,Subcat,problem_latex,answer_latex\n";

Deno.test("loadLinalgBench() reads all 660 rows from the folder, 220 per size, 9 tasks", async () => {
  const rows = await loadLinalgBench("data/linalgbench");
  assert.equal(rows.length, 660);
  for (const n of [3, 4, 5]) {
    const sized = rows.filter((r) => r.problem.n === n);
    assert.equal(sized.length, 220);
    assert.equal(
      sized.filter((r) => r.problem.task === "determinant").length,
      50,
    );
    assert.equal(
      sized.filter((r) => r.problem.task === "eigenvalue").length,
      30,
    );
    assert.equal(new Set(sized.map((r) => r.problem.task)).size, 9);
    assert.ok(
      sized.every((r) =>
        r.problem.A.length === n && r.problem.A.every((row) => row.length === n)
      ),
    );
  }
});

Deno.test("loadLinalgBench() tells full-task cells (3×3, 5×5) from matrices-only cells (4×4)", async () => {
  const rows = await loadLinalgBench("data/linalgbench");
  assert.ok(rows.filter((r) => r.problem.n === 4).every((r) => !r.fullText));
  assert.ok(rows.filter((r) => r.problem.n !== 4).every((r) => r.fullText));
});

Deno.test("loadLinalgBench() finds both operands of every two-operand problem", async () => {
  const rows = await loadLinalgBench("data/linalgbench");
  const mult = rows.filter((r) => r.problem.task === "multiplication");
  const matvec = rows.filter((r) => r.problem.task === "matrix_vector");
  assert.equal(mult.length, 60);
  assert.ok(mult.every((r) => r.problem.B?.length === r.problem.n));
  assert.equal(matvec.length, 60);
  assert.ok(matvec.every((r) => r.problem.x?.length === r.problem.n));
  assert.ok(
    rows.filter((r) => r.problem.task === "matrix_power").every((r) =>
      r.problem.exponent === 2
    ),
  );
});

Deno.test("parseLinalgBenchCsv() reads '\\quad' operands, a literal \\n separator, A^{T} and λ lists", () => {
  const csv = HEADER +
    'C_2x2_mult_001,multiplication,"A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}, \\quad B = \\begin{bmatrix} 0 & 1 \\\\ 1 & 0 \\end{bmatrix}",C = \\begin{bmatrix} 2 & 1 \\\\ 4 & 3 \\end{bmatrix}\n' +
    'C_2x2_matvec_001,matrix_vector,"A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}\\nx = \\begin{bmatrix} 1 \\\\ -1 \\end{bmatrix}",b = \\begin{bmatrix} -1 \\\\ -1 \\end{bmatrix}\n' +
    "C_2x2_trans_001,transpose,A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix},A^{T} = \\begin{bmatrix} 1 & 3 \\\\ 2 & 4 \\end{bmatrix}\n" +
    'C_2x2_eig_001,eigenvalue,A = \\begin{bmatrix} 0 & 1 \\\\ 1 & 0 \\end{bmatrix},"\\lambda = -1, 1"\n' +
    "C_2x2_rank_001,rank,A = \\begin{bmatrix} 1 & 2 \\\\ 2 & 4 \\end{bmatrix},\\text{rank}(A) = 1\n";
  const rows = parseLinalgBenchCsv(csv, "mini.csv");
  assert.deepEqual(rows[0]!.problem.B, [["0", "1"], ["1", "0"]]);
  assert.deepEqual(rows[0]!.key, {
    kind: "matrix",
    value: [["2", "1"], ["4", "3"]],
  });
  assert.deepEqual(rows[1]!.problem.x, ["1", "-1"]);
  assert.deepEqual(rows[2]!.key, {
    kind: "matrix",
    value: [["1", "3"], ["2", "4"]],
  });
  assert.deepEqual(rows[3]!.key, { kind: "multiset", value: ["-1", "1"] });
  assert.equal(rows[3]!.keyDecimals, 4);
  assert.deepEqual(rows[4]!.key, { kind: "rational", value: "1" });
  assert.equal(rows[4]!.file, "mini.csv");
});

Deno.test("parseLinalgBenchCsv() rejects an unknown Subcat and a missing column with SyntaxError", () => {
  assert.throws(
    () =>
      parseLinalgBenchCsv(
        HEADER + "X_1,inverse,A = \\begin{bmatrix} 1 \\end{bmatrix},1\n",
      ),
    /Cannot parse X_1: unknown Subcat "inverse"/,
  );
  assert.throws(
    () => parseLinalgBenchCsv("Problem_ID,Subcat\nX,trace\n"),
    SyntaxError,
  );
});

Deno.test("loadLinalgBench() fails clearly on a missing path or a folder without CSVs", async () => {
  await assert.rejects(
    () => loadLinalgBench("data/no-such-folder"),
    /Cannot load LinAlg-Bench/,
  );
  const empty = await Deno.makeTempDir();
  try {
    await assert.rejects(() => loadLinalgBench(empty), /no \.csv file/);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
