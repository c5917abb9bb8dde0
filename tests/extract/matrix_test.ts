import assert from "node:assert/strict";
import { extractLinalgAnswer, findMatrices } from "../../lib/extract/mod.ts";
import { parseRational } from "../../lib/math/rational.ts";

const matrixOf = (text: string) => {
  const found = extractLinalgAnswer(text, "matrix");
  return found ? { rows: JSON.parse(found.value), rule: found.rule } : null;
};

Deno.test("extractLinalgAnswer() takes the last \\boxed{} scalar, not the working", () => {
  const text =
    "det = 5 · (−3) − 2 = −17? No: \\boxed{-15} ... recheck: the determinant is $\\boxed{\\det(A) = -41}$.";
  const found = extractLinalgAnswer(text, "rational");
  assert.equal(found?.value, "-41");
  assert.equal(found?.rule, "boxed");
  assert.equal(found?.candidates, 2);
});

Deno.test("extractLinalgAnswer() falls back to the answer marker when nothing is boxed", () => {
  assert.equal(
    extractLinalgAnswer("Expanding... Final answer: 5,950", "rational")?.value,
    "5950",
  );
  assert.equal(extractLinalgAnswer("I cannot do this.", "rational"), null);
});

Deno.test("extractLinalgAnswer() reads bmatrix, pmatrix, nested lists and plain rows inside a box", () => {
  assert.deepEqual(
    matrixOf(
      "\\boxed{\\begin{bmatrix} 1 & -2 \\\\ \\frac{1}{2} & 0 \\end{bmatrix}}",
    )?.rows,
    [["1", "-2"], ["1/2", "0"]],
  );
  assert.deepEqual(
    matrixOf("$$\\boxed{\\begin{pmatrix} 3 & 4 \\\\ 5 & 6 \\end{pmatrix}}$$")
      ?.rows,
    [["3", "4"], ["5", "6"]],
  );
  assert.deepEqual(matrixOf("so \\boxed{[[1, 2], [3, −4]]}")?.rows, [
    ["1", "2"],
    ["3", "-4"],
  ]);
  assert.deepEqual(matrixOf("\\boxed{1 & 2 \\\\ 3 & 4}")?.rows, [["1", "2"], [
    "3",
    "4",
  ]]);
  assert.deepEqual(matrixOf("\\boxed{[0, -4, -42]}")?.rows, [["0"], ["-4"], [
    "-42",
  ]]);
});

Deno.test("extractLinalgAnswer() takes the last matrix of the reply when there is no box", () => {
  const text =
    "A = \\begin{bmatrix} 9 & 9 \\\\ 9 & 9 \\end{bmatrix}\n\nSo A^T is\n\\begin{bmatrix} 1 & 3 \\\\ 2 & 4 \\end{bmatrix}";
  assert.deepEqual(matrixOf(text), {
    rows: [["1", "3"], ["2", "4"]],
    rule: "last_matrix",
  });
  const table = "The result:\n| 1  -2 |\n| 3   4 |\nDone.";
  assert.deepEqual(matrixOf(table), {
    rows: [["1", "-2"], ["3", "4"]],
    rule: "last_matrix",
  });
  const rows = "The product is:\n1 2 3\n4 5 6";
  assert.deepEqual(matrixOf(rows), {
    rows: [["1", "2", "3"], ["4", "5", "6"]],
    rule: "last_rows",
  });
});

Deno.test("extractLinalgAnswer() ignores matrices inside <think> blocks", () => {
  const text =
    "<think>\\boxed{\\begin{bmatrix} 0 \\end{bmatrix}}</think>\\boxed{\\begin{bmatrix} 7 \\end{bmatrix}}";
  assert.deepEqual(matrixOf(text)?.rows, [["7"]]);
});

Deno.test("extractLinalgAnswer() reads eigenvalue lists: decimals, labels, ±√, fractions, multiplicity", () => {
  const list = (t: string) => {
    const f = extractLinalgAnswer(t, "multiset");
    return f
      ? (JSON.parse(f.value) as string[]).map((v) => parseRational(v).valueOf())
      : null;
  };
  assert.deepEqual(list("\\boxed{\\lambda = -10.9074, 4.5753, 6.3321}"), [
    -10.9074,
    4.5753,
    6.3321,
  ]);
  assert.deepEqual(
    list(
      "\\boxed{\\lambda_1 = 2,\\ \\lambda_2 = -1/2, \\lambda_3 = \\frac{3}{4}}",
    ),
    [2, -0.5, 0.75],
  );
  const pm = list("\\boxed{3 \\pm 2\\sqrt{5}}")!;
  assert.ok(
    Math.abs(pm[0]! - (3 + 2 * Math.sqrt(5))) < 1e-12 &&
      Math.abs(pm[1]! - (3 - 2 * Math.sqrt(5))) < 1e-12,
  );
  const frac = list("\\boxed{\\frac{1 \\pm \\sqrt{5}}{2}}")!;
  assert.ok(Math.abs(frac[0]! - (1 + Math.sqrt(5)) / 2) < 1e-12);
  assert.deepEqual(list("\\boxed{\\{1, 2 \\text{ (multiplicity 2)}\\}}"), [
    1,
    2,
    2,
  ]);
  assert.deepEqual(list("The eigenvalues are 1, 2 and 4."), [1, 2, 4]);
  assert.equal(list("\\boxed{\\lambda = \\text{complicated}}"), null);
});

Deno.test("findMatrices() reads the three input formats the prompts use", () => {
  const latex = findMatrices(
    "A = \\begin{bmatrix} -3 & 5 \\\\ 1 & 2 \\end{bmatrix}",
  );
  const list = findMatrices("A = [[-3, 5], [1, 2]]");
  const table = findMatrices("A =\n| -3   5 |\n|  1   2 |");
  for (const found of [latex, list, table]) {
    assert.deepEqual(found[0]?.rows, [["-3", "5"], ["1", "2"]]);
  }
  assert.deepEqual([latex[0]!.form, list[0]!.form, table[0]!.form], [
    "latex",
    "list",
    "table",
  ]);
});
